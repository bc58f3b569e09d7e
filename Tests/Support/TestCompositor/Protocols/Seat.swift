// wl_seat and the device objects it hands out. The test decides which devices exist (and may
// change that at any time: capabilities are sent again); input events themselves are sent by
// Pointer.swift, Touch.swift and Keyboard.swift to the devices of the client that has focus.
internal import CWaylandServer
internal import CWaylandServerProtocols

/// Which device a ``DeviceObject`` is.
enum DeviceKind: String {
    case pointer = "wl_pointer", keyboard = "wl_keyboard", touch = "wl_touch"
}

/// One `wl_pointer`, `wl_keyboard` or `wl_touch` a client got from a seat.
final class DeviceObject: ResourceObject {
    unowned let server: Server
    let resource: OpaquePointer
    let client: ClientID
    let kind: DeviceKind
    init(server: Server, resource: OpaquePointer, client: ClientID, kind: DeviceKind) {
        self.server = server
        self.resource = resource
        self.client = client
        self.kind = kind
    }
    var version: Int32 { wl_resource_get_version(resource) }
    func resourceDestroyed() { server.seat.devices.removeAll { $0 === self } }
}

/// The seat's devices, focus and pressed state.
struct SeatDevices {
    var seats: [OpaquePointer] = []
    var devices: [DeviceObject] = []
    /// Capabilities the seat has ever had: getting a device the seat never had is a protocol error.
    var everHad: SeatCapabilities = []
    var pointerFocus: SurfaceID?
    var keyboardFocus: SurfaceID?
    /// Surfaces of the touch points now down, by touch id.
    var touchPoints: [Int32: SurfaceID] = [:]
    /// The client of the most recent touch event (frame and cancel go there).
    var touchClient: ClientID?
    var pressedKeys: [UInt32] = []

    func devices(_ kind: DeviceKind, of client: ClientID) -> [DeviceObject] {
        devices.filter { $0.kind == kind && $0.client == client }
    }

    /// Drops every reference to a destroyed surface (no leave: the surface is gone).
    mutating func forget(_ surface: SurfaceID) {
        if pointerFocus == surface { pointerFocus = nil }
        if keyboardFocus == surface { keyboardFocus = nil }
        touchPoints = touchPoints.filter { $0.value != surface }
    }
}

extension Server {
    func bindSeat(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_wl_seat_interface(), version: Int32(version), id: id) else { return }
        bind(SeatObject(server: self, resource: resource), to: resource, implementation: seatImplementation)
        seat.seats.append(resource)
        wl_seat_send_capabilities(resource, state.seatCapabilities.rawValue)
        if version >= 2 { wl_seat_send_name(resource, "seat0") }
    }

    /// Changes the seat's devices and sends `wl_seat.capabilities` to every bound seat. A device
    /// that goes away takes its state with it, as in a real compositor: touch points are no longer
    /// down, and pointer or keyboard focus must be entered afresh once the device is back.
    func setCapabilities(_ capabilities: SeatCapabilities) {
        state.seatCapabilities = capabilities
        seat.everHad.formUnion(capabilities)
        if !capabilities.contains(.touch) { seat.touchPoints.removeAll() }
        if !capabilities.contains(.pointer) { seat.pointerFocus = nil }
        if !capabilities.contains(.keyboard) {
            seat.keyboardFocus = nil
            seat.pressedKeys.removeAll()
        }
        for resource in seat.seats { wl_seat_send_capabilities(resource, capabilities.rawValue) }
    }

    fileprivate func getDevice(_ kind: DeviceKind, seat seatResource: OpaquePointer?, id: UInt32) {
        let capability: SeatCapabilities = switch kind { case .pointer: .pointer; case .keyboard: .keyboard; case .touch: .touch }
        guard seat.everHad.contains(capability) || state.seatCapabilities.contains(capability) else {
            return postError(seatResource, WL_SEAT_ERROR_MISSING_CAPABILITY.rawValue, "get_\(kind.rawValue.dropFirst(3)): the seat never had that capability (it has \(state.seatCapabilities))")
        }
        let interface = switch kind {
        case .pointer: wlslider_server_wl_pointer_interface()
        case .keyboard: wlslider_server_wl_keyboard_interface()
        case .touch: wlslider_server_wl_touch_interface()
        }
        guard let resource = createResource(wl_resource_get_client(seatResource), interface, version: wl_resource_get_version(seatResource), id: id) else { return }
        let device = DeviceObject(server: self, resource: resource, client: clientID(of: seatResource), kind: kind)
        let implementation = switch kind {
        case .pointer: pointerImplementation
        case .keyboard: releaseOnlyImplementation
        case .touch: releaseOnlyImplementation
        }
        bind(device, to: resource, implementation: implementation)
        seat.devices.append(device)
        if kind == .keyboard { keyboardCreated(device) }
    }
}

/// One bound `wl_seat`.
final class SeatObject: ResourceObject {
    unowned let server: Server
    let resource: OpaquePointer
    init(server: Server, resource: OpaquePointer) {
        self.server = server
        self.resource = resource
    }
    func resourceDestroyed() { server.seat.seats.removeAll { $0 == resource } }
}

private let seatImplementation = implementationTable(wl_seat_interface(
    get_pointer: { _, resource, id in object(resource, as: SeatObject.self).server.getDevice(.pointer, seat: resource, id: id) },
    get_keyboard: { _, resource, id in object(resource, as: SeatObject.self).server.getDevice(.keyboard, seat: resource, id: id) },
    get_touch: { _, resource, id in object(resource, as: SeatObject.self).server.getDevice(.touch, seat: resource, id: id) },
    release: { _, resource in wl_resource_destroy(resource) }
))

/// wl_keyboard and wl_touch have one request: `release` (version 3).
private let releaseOnlyImplementation = implementationTable(wl_touch_interface(
    release: { _, resource in wl_resource_destroy(resource) }
))

extension Server {
    /// Sends one event to every device of `kind` the client has at version `since` or later.
    /// Throws when none received it, saying why (no such device, or only older versions).
    func deliver(_ kind: DeviceKind, to client: ClientID, event: String, since: Int32 = 1, _ send: (DeviceObject) -> Void) throws {
        let all = seat.devices(kind, of: client)
        let able = all.filter { $0.version >= since }
        guard !able.isEmpty else {
            if all.isEmpty { throw TestCompositorError("test compositor: \(kind.rawValue).\(event): \(client) has no \(kind.rawValue) (seat capabilities: \(state.seatCapabilities))") }
            throw TestCompositorError("test compositor: \(kind.rawValue).\(event) needs version \(since); \(client) has \(kind.rawValue) version \(all.map(\.version).max()!)")
        }
        able.forEach(send)
    }
}
