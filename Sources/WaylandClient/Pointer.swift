// wl_pointer: decoded into PointerEvent batches per frame (PointerFrameAssembler holds the rules) for
// the surface under the pointer; the cursor is set on enter.
internal import CWaylandClient
internal import CWaylandProtocols

final class Pointer {
    private unowned let seat: Seat
    /// Copied from the seat: a deinit must not read the seat, which may be deinitialising itself.
    private let hasRelease: Bool
    let proxy: OpaquePointer
    /// The cursor-shape-v1 device for this pointer, when the compositor offers cursor shapes.
    private(set) var shapeDevice: OpaquePointer?
    private var assembler: PointerFrameAssembler
    /// The surface under the pointer (nil: none of ours).
    private weak var focus: SliderSurface?
    /// The surface the pending (not yet framed) events belong to.
    private weak var batchTarget: SliderSurface?

    init(seat: Seat) {
        self.seat = seat
        hasRelease = seat.devicesHaveRelease
        proxy = wl_seat_get_pointer(seat.proxy)
        assembler = PointerFrameAssembler(usesFrames: seat.version >= 5)
        wl_pointer_add_listener(proxy, Listeners.pointer, Unmanaged.passUnretained(self).toOpaque())
        if let manager = seat.connection.cursorShapeManager {
            shapeDevice = wp_cursor_shape_manager_v1_get_pointer(manager.proxy, proxy)
        }
    }

    deinit {
        if let shapeDevice { wp_cursor_shape_device_v1_destroy(shapeDevice) }
        if hasRelease { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
    }

    func enter(serial: UInt32, surface: OpaquePointer?, x: Double, y: Double) {
        focus = seat.connection.surface(for: surface)
        guard let focus else { return }
        seat.connection.cursors.apply(to: self, serial: serial, scale: focus.scale.integerCeiling)
        queue { $0.add(.enter(x: x, y: y)) }
    }

    func leave(surface: OpaquePointer?) {
        queue { $0.add(.leave) }
        focus = nil
    }

    func motion(time: UInt32, x: Double, y: Double) {
        queue { $0.add(.motion(x: x, y: y, time: time)) }
    }

    func button(time: UInt32, button: UInt32, pressed: Bool) {
        queue { $0.add(.button(button: button, state: pressed ? .pressed : .released, time: time)) }
    }

    func axis(time: UInt32, axis: PointerAxis, pixels: Double) {
        queue { $0.axis(axis, pixels: pixels, time: time) }
    }

    func axisSource(_ raw: UInt32) {
        queue { $0.axisSource(Pointer.axisSource(raw)); return nil }
    }

    func axisStop(time: UInt32, axis: PointerAxis) {
        queue { $0.axisStop(axis, time: time); return nil }
    }

    func axisDiscrete(axis: PointerAxis, steps: Int32) {
        queue { $0.axisDiscrete(axis, steps: steps); return nil }
    }

    func axisValue120(axis: PointerAxis, value: Int32) {
        queue { $0.axisValue120(axis, value: value); return nil }
    }

    func frame() {
        guard let batch = assembler.frame(), let target = batchTarget else { return }
        target.delegate?.surface(target, pointer: batch)
    }

    /// The seat lost its pointer: deliver what is pending, then tell the focused surface.
    func deviceRemoved() {
        frame()
        guard let focus else { return }
        focus.delegate?.surface(focus, pointer: [.deviceRemoved])
        self.focus = nil
    }

    /// Adds an event for the focused surface (dropped while the pointer is over none of ours). Pending
    /// events of another surface are delivered first, so no batch mixes surfaces.
    private func queue(_ add: (inout PointerFrameAssembler) -> [PointerEvent]?) {
        guard let target = focus else { return }
        if let previous = batchTarget, previous !== target { frame() }
        batchTarget = target
        if let batch = add(&assembler) { target.delegate?.surface(target, pointer: batch) }
    }

    static func axisSource(_ raw: UInt32) -> AxisSource {
        switch raw {
        case WL_POINTER_AXIS_SOURCE_WHEEL.rawValue: .wheel
        case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: .finger
        case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: .continuous
        case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: .wheelTilt
        default: .unknown
        }
    }
}
