// The input a test sends: one call per event (the test chooses the grouping, `frame` included),
// or a batch sent in one go. Every call returns after the events were queued to the client.

/// Sends `wl_pointer` events to the client whose surface has pointer focus.
public struct PointerControl: Sendable {
    let thread: ServerThread

    /// Gives `surface` pointer focus at surface-local (x, y); leaves the previous surface first.
    @discardableResult
    public func enter(_ surface: SurfaceID, x: Double, y: Double) throws -> UInt32 {
        try thread.perform { try $0.pointerEnter(surface, x: x, y: y) }
    }
    /// Sends `leave` to the focused surface.
    @discardableResult
    public func leave() throws -> UInt32 { try thread.perform { try $0.pointerLeave() } }
    /// `motion` to surface-local (x, y).
    public func motion(x: Double, y: Double) throws { try send(.motion(x: x, y: y)) }
    /// `button`; returns its serial.
    @discardableResult
    public func button(_ button: PointerButton = .left, _ state: ButtonState) throws -> UInt32 {
        try send([.button(button, state)]).first ?? 0
    }
    /// `axis` with a continuous value (surface-local distance).
    public func axis(_ axis: PointerAxis = .vertical, _ value: Double) throws { try send(.axis(axis, value)) }
    /// `axis_source` (version 5).
    public func axisSource(_ source: AxisSource) throws { try send(.axisSource(source)) }
    /// `axis_stop` (version 5).
    public func axisStop(_ axis: PointerAxis = .vertical) throws { try send(.axisStop(axis)) }
    /// `axis_discrete` (versions 5 to 7).
    public func axisDiscrete(_ axis: PointerAxis = .vertical, _ steps: Int32) throws { try send(.axisDiscrete(axis, steps)) }
    /// `axis_value120` (version 8): 120 per wheel detent.
    public func axisValue120(_ axis: PointerAxis = .vertical, _ value: Int32) throws { try send(.axisValue120(axis, value)) }
    /// `frame` (version 5).
    public func frame() throws { try send(.frame) }

    /// Sends the events in order, in one go; returns the serials of the `button` events.
    @discardableResult
    public func send(_ events: [PointerEvent]) throws -> [UInt32] {
        try thread.perform { server in
            try events.compactMap { event in
                let serial = try server.pointerEvent(event)
                if case .button = event { return serial }
                return nil
            }
        }
    }
    private func send(_ event: PointerEvent) throws { try send([event]) }

    /// One mouse-wheel detent group as real compositors send it: `axis_source(wheel)`, then
    /// `axis_value120` (version 8) or `axis_discrete` (versions 5–7), `axis` with
    /// `distancePerStep * steps`, and `frame`.
    public func wheel(_ axis: PointerAxis = .vertical, steps: Int32, distancePerStep: Double = 15) throws {
        try thread.perform { server in
            let version = try server.focusedPointerVersion()
            var events: [PointerEvent] = [.axisSource(.wheel)]
            events.append(version >= 8 ? .axisValue120(axis, steps * 120) : .axisDiscrete(axis, steps))
            events += [.axis(axis, distancePerStep * Double(steps)), .frame]
            for event in events { _ = try server.pointerEvent(event) }
        }
    }
}

/// Sends `wl_touch` events. A touch point belongs to the surface it went down on.
public struct TouchControl: Sendable {
    let thread: ServerThread

    /// `down` at surface-local (x, y); returns its serial.
    @discardableResult
    public func down(id: Int32 = 0, on surface: SurfaceID, x: Double, y: Double) throws -> UInt32 {
        try send([.down(id: id, surface: surface, x: x, y: y)]).first ?? 0
    }
    /// `motion` of a touch point that is down.
    public func motion(id: Int32 = 0, x: Double, y: Double) throws { try send([.motion(id: id, x: x, y: y)]) }
    /// `up`; returns its serial.
    @discardableResult
    public func up(id: Int32 = 0) throws -> UInt32 { try send([.up(id: id)]).first ?? 0 }
    /// `frame`, to the client of the last touch event.
    public func frame() throws { try send([.frame]) }
    /// `cancel`, to the client of the last touch event; every touch point is then up.
    public func cancel() throws { try send([.cancel]) }
    /// `shape` (version 6).
    public func shape(id: Int32 = 0, major: Double, minor: Double) throws { try send([.shape(id: id, major: major, minor: minor)]) }
    /// `orientation` (version 6).
    public func orientation(id: Int32 = 0, degrees: Double) throws { try send([.orientation(id: id, degrees: degrees)]) }

    /// Sends the events in order, in one go; returns the serials of `down` and `up` events.
    @discardableResult
    public func send(_ events: [TouchEvent]) throws -> [UInt32] {
        try thread.perform { server in
            try events.compactMap { event in
                let serial = try server.touchEvent(event)
                return serial == 0 ? nil : serial
            }
        }
    }
}

/// Sends `wl_keyboard` events to the client whose surface has keyboard focus.
public struct KeyboardControl: Sendable {
    let thread: ServerThread

    /// Gives `surface` keyboard focus (`enter` with the keys held, then `modifiers`).
    @discardableResult
    public func enter(_ surface: SurfaceID) throws -> UInt32 { try thread.perform { try $0.keyboardEnter(surface) } }
    /// Sends `leave` to the focused surface.
    @discardableResult
    public func leave() throws -> UInt32 { try thread.perform { try $0.keyboardLeave() } }
    /// Presses a key (then sends `modifiers` if it is a modifier key); returns the serial.
    @discardableResult
    public func press(_ key: Key) throws -> UInt32 { try thread.perform { try $0.key(key, pressed: true) } }
    /// Releases a key; returns the serial.
    @discardableResult
    public func release(_ key: Key) throws -> UInt32 { try thread.perform { try $0.key(key, pressed: false) } }
    /// Presses and releases a key, in one go.
    public func tap(_ key: Key) throws {
        try thread.perform { server in
            _ = try server.key(key, pressed: true)
            _ = try server.key(key, pressed: false)
        }
    }
    /// Sends `modifiers` as given (the compositor's own xkb state is not changed).
    public func modifiers(_ modifiers: KeyboardModifiers) throws { try thread.perform { try $0.sendModifiers(modifiers) } }
    /// The mask bit of an xkb modifier name ("Shift", "Control", "Mod1", "Lock", "Mod4").
    public func modifierMask(_ name: String) throws -> UInt32 {
        try thread.perform { server in
            guard let mask = try server.keyboardKeymap().0.modifierMask(name) else {
                throw TestCompositorError("test compositor: the keymap has no modifier named \(name)")
            }
            return mask
        }
    }
    /// The evdev key code a key is sent as.
    public func keycode(_ key: Key) throws -> UInt32 {
        try thread.perform { server in try server.evdevCode(key, server.keyboardKeymap().0) }
    }
    /// The keymap text sent to clients (xkb text format v1).
    public func keymapText() throws -> String {
        try thread.perform { server in String(decoding: try server.keyboardKeymap().0.text.dropLast(), as: UTF8.self) }
    }
    /// Sends a keymap to every keyboard, as a hostile compositor might: `contents` in a new file
    /// announced as `announcedSize` bytes (default: the length of `contents`, so a larger value
    /// announces bytes the file does not have), in `format` (1 = xkb v1, 0 = no keymap). Key
    /// presses sent afterwards still use the compositor's own keymap's codes.
    public func sendKeymap(_ contents: [UInt8], announcedSize: UInt32? = nil, format: UInt32 = 1) throws {
        try thread.perform { try $0.sendKeymap(contents, announcedSize: announcedSize, format: format) }
    }
    /// Sends the compositor's own (valid) keymap again to every keyboard, in a new file.
    public func resendKeymap() throws {
        try thread.perform { try $0.sendKeymap(nil, announcedSize: nil, format: 1) }
    }
    /// Changes `repeat_info` (characters per second, 0 = no repeat; delay in ms) and sends it to
    /// every keyboard of version 4 or later.
    public func setRepeat(rate: Int32, delay: Int32) throws {
        try thread.perform { $0.setKeyRepeat(rate: rate, delay: delay) }
    }
}

extension Server {
    func focusedPointerVersion() throws -> Int32 {
        guard let id = seat.pointerFocus, let surface = surfaces[id] else {
            throw TestCompositorError("test compositor: wl_pointer: no surface has pointer focus (call pointer.enter first)")
        }
        guard let version = seat.devices(.pointer, of: surface.client).map(\.version).max() else {
            throw TestCompositorError("test compositor: wl_pointer: \(surface.client) has no wl_pointer")
        }
        return version
    }
}
