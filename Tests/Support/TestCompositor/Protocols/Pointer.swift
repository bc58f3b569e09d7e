// wl_pointer: every event on its own (the test chooses the grouping, frames included), plus the
// cursor a client sets. Events go to the client whose surface has pointer focus.
internal import CWaylandServer
internal import CWaylandServerProtocols

/// A `wl_pointer.axis`.
public enum PointerAxis: UInt32, Sendable {
    case vertical = 0, horizontal = 1
}

/// A `wl_pointer.axis_source`.
public enum AxisSource: UInt32, Sendable {
    case wheel = 0, finger, continuous, wheelTilt
}

/// A `wl_pointer.button_state`.
public enum ButtonState: UInt32, Sendable {
    case released = 0, pressed = 1
}

/// A Linux input button code (linux/input-event-codes.h).
public struct PointerButton: Hashable, Sendable {
    /// The evdev code (`BTN_*`).
    public let code: UInt32
    public init(code: UInt32) { self.code = code }
    /// `BTN_LEFT`
    public static let left = PointerButton(code: 0x110)
    /// `BTN_RIGHT`
    public static let right = PointerButton(code: 0x111)
    /// `BTN_MIDDLE`
    public static let middle = PointerButton(code: 0x112)
}

/// One pointer event, as ``PointerControl/send(_:)`` takes them.
public enum PointerEvent: Sendable {
    case motion(x: Double, y: Double)
    case button(PointerButton, ButtonState)
    case axis(PointerAxis, Double)
    case axisSource(AxisSource)
    case axisStop(PointerAxis)
    case axisDiscrete(PointerAxis, Int32)
    case axisValue120(PointerAxis, Int32)
    case frame
}

extension Server {
    func pointerEnter(_ id: SurfaceID, x: Double, y: Double) throws -> UInt32 {
        let surface = try self.surface(id)
        if let old = seat.pointerFocus, old != id { _ = try? pointerLeave() }
        let serial = nextSerial()
        try deliver(.pointer, to: surface.client, event: "enter") {
            wl_pointer_send_enter($0.resource, serial, surface.resource, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        seat.pointerFocus = id
        try autoFrame(.pointer, surface.client, after: "enter")
        return serial
    }

    func pointerLeave() throws -> UInt32 {
        guard let id = seat.pointerFocus else { throw TestCompositorError("test compositor: wl_pointer.leave: no surface has pointer focus") }
        seat.pointerFocus = nil
        let surface = try self.surface(id)
        let serial = nextSerial()
        try deliver(.pointer, to: surface.client, event: "leave") { wl_pointer_send_leave($0.resource, serial, surface.resource) }
        try autoFrame(.pointer, surface.client, after: "leave")
        return serial
    }

    /// Sends one pointer event to the focused client; returns the serial for `button`, else 0.
    func pointerEvent(_ event: PointerEvent) throws -> UInt32 {
        guard let id = seat.pointerFocus else {
            throw TestCompositorError("test compositor: wl_pointer: no surface has pointer focus (call pointer.enter first)")
        }
        let client = try surface(id).client
        let time = state.time
        var serial: UInt32 = 0
        switch event {
        case .motion(let x, let y):
            try deliver(.pointer, to: client, event: "motion") { wl_pointer_send_motion($0.resource, time, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
        case .button(let button, let buttonState):
            serial = nextSerial()
            try deliver(.pointer, to: client, event: "button") { wl_pointer_send_button($0.resource, serial, time, button.code, buttonState.rawValue) }
        case .axis(let axis, let value):
            try deliver(.pointer, to: client, event: "axis") { wl_pointer_send_axis($0.resource, time, axis.rawValue, wl_fixed_from_double(value)) }
        case .axisSource(let source):
            try deliver(.pointer, to: client, event: "axis_source", since: 5) { wl_pointer_send_axis_source($0.resource, source.rawValue) }
        case .axisStop(let axis):
            try deliver(.pointer, to: client, event: "axis_stop", since: 5) { wl_pointer_send_axis_stop($0.resource, time, axis.rawValue) }
        case .axisDiscrete(let axis, let steps):
            try deliver(.pointer, to: client, event: "axis_discrete", since: 5) { wl_pointer_send_axis_discrete($0.resource, axis.rawValue, steps) }
        case .axisValue120(let axis, let value):
            try deliver(.pointer, to: client, event: "axis_value120", since: 8) { wl_pointer_send_axis_value120($0.resource, axis.rawValue, value) }
        case .frame:
            try deliver(.pointer, to: client, event: "frame", since: 5) { wl_pointer_send_frame($0.resource) }
            return 0
        }
        try autoFrame(.pointer, client, after: "\(event)")
        return serial
    }

    /// Adds the `frame` that ``Configuration/inputFraming`` asks for after an event.
    func autoFrame(_ kind: DeviceKind, _ client: ClientID, after event: String) throws {
        switch configuration.inputFraming {
        case .manual: return
        case .afterEachEventExceptTouchUp where kind == .touch && event == "up": return
        default: break
        }
        if kind == .pointer {
            try deliver(.pointer, to: client, event: "frame", since: 5) { wl_pointer_send_frame($0.resource) }
        } else {
            try deliver(.touch, to: client, event: "frame") { wl_touch_send_frame($0.resource) }
        }
    }

    fileprivate func setCursor(_ pointer: DeviceObject, serial: UInt32, surface: SurfaceObject?, x: Int32, y: Int32) {
        if let surface {
            guard surface.role == nil, surface.record.role == .none || surface.record.role == .cursor else {
                return postError(pointer.resource, WL_POINTER_ERROR_ROLE.rawValue, "set_cursor: wl_surface@\(wl_resource_get_id(surface.resource)) has the role \(surface.record.role)")
            }
            surface.record.role = .cursor
        }
        state.cursorSurfaces.append(CursorSurfaceRequest(client: pointer.client, serial: serial, surface: surface?.id, hotspotX: x, hotspotY: y))
    }
}

let pointerImplementation = implementationTable(wl_pointer_interface(
    set_cursor: { _, resource, serial, surface, x, y in
        let pointer = object(resource, as: DeviceObject.self)
        pointer.server.setCursor(pointer, serial: serial, surface: optionalObject(surface), x: x, y: y)
    },
    release: { _, resource in wl_resource_destroy(resource) }
))
