// wl_seat: follows the capabilities at any time and owns the pointer, keyboard and touch objects
// while the seat has them (devices come and go, e.g. a detachable keyboard or an injector).
internal import CWaylandClient

final class Seat {
    unowned let connection: WaylandConnection
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    private(set) var name = ""
    private(set) var pointer: Pointer?
    private(set) var keyboard: Keyboard?
    private(set) var touch: Touch?

    init(connection: WaylandConnection, registry: OpaquePointer, binding: GlobalBinding) {
        self.connection = connection
        let raw = wl_registry_bind(registry, binding.name, wlslider_wl_seat_interface(), binding.version)
        proxy = OpaquePointer(raw!)
        globalName = binding.name
        version = binding.version
        wl_seat_add_listener(proxy, Listeners.seat, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pointer = nil
        keyboard = nil
        touch = nil
        // wl_seat.release exists from version 5 on.
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    /// wl_pointer/wl_keyboard/wl_touch `release` requests exist from seat version 3 on.
    var devicesHaveRelease: Bool { version >= 3 }

    func capabilitiesEvent(_ raw: UInt32) {
        let hasPointer = raw & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = raw & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let hasTouch = raw & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        if hasPointer && pointer == nil { pointer = Pointer(seat: self) }
        if !hasPointer, let pointer { pointer.deviceRemoved(); self.pointer = nil }
        if hasKeyboard && keyboard == nil { keyboard = Keyboard(seat: self) }
        if !hasKeyboard, let keyboard { keyboard.deviceRemoved(); self.keyboard = nil }
        if hasTouch && touch == nil { touch = Touch(seat: self) }
        if !hasTouch, let touch { touch.deviceRemoved(); self.touch = nil }
    }

    func nameEvent(_ name: String) {
        self.name = name
    }

    /// The seat's global went away: end what its devices were doing, then drop them.
    func removeAllDevices() {
        capabilitiesEvent(0)
    }

    func loopAttached() {
        keyboard?.loopAttached()
    }
}
