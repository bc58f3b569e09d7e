// wl_keyboard: the compositor's keymap compiled by xkbcommon, keys turned into keysyms, and key
// repeat timed with a timerfd on the EventLoop (KeyRepeater holds the rules).
internal import CWaylandClient
internal import CXKBCommon
internal import Glibc

/// An xkb keymap and the state that tracks modifiers against it.
final class XKBKeymap {
    let keymap: OpaquePointer
    let state: OpaquePointer

    /// Compiles the keymap text in `fd` (mapped privately, as the protocol demands from version 7).
    init?(context: OpaquePointer, fd: Int32, size: UInt32) {
        guard size > 0, let text = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), text != MAP_FAILED else {
            return nil
        }
        defer { munmap(text, Int(size)) }
        // The buffer variant never reads past `size`; the NUL that ends the text must not be part of it
        // (xkbcommon 1.5 rejects it as an "unrecognized token").
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(size))
        let length = XKBKeymap.textLength(bytes)
        guard let keymap = xkb_keymap_new_from_buffer(context, text.assumingMemoryBound(to: CChar.self), length,
                                                      XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            return nil
        }
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            return nil
        }
        self.keymap = keymap
        self.state = state
    }

    /// The length of the keymap text: up to the first NUL, or all of it.
    static func textLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.firstIndex(of: 0) ?? bytes.count
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
    }

    /// The keysym of evdev key `code` under the current state.
    func keysym(code: UInt32) -> UInt32 {
        xkb_state_key_get_one_sym(state, code + 8)
    }

    /// Whether the keymap says key `code` repeats (modifiers typically do not).
    func repeats(code: UInt32) -> Bool {
        xkb_keymap_key_repeats(keymap, code + 8) != 0
    }

    func update(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    var modifiers: Modifiers {
        var result: Modifiers = []
        let names: [(String, Modifiers)] = [("Shift", .shift), ("Control", .control), ("Mod1", .alt), ("Mod4", .logo)]
        for (name, modifier) in names where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            result.insert(modifier)
        }
        return result
    }
}

/// A timerfd it owns, watched by the loop while both exist.
final class RepeatTimer {
    private let file: OwnedFileDescriptor
    private let token: EventLoop.SourceToken
    private weak var loop: EventLoop?

    init?(loop: EventLoop, onExpiry: @escaping (UInt64) -> Void) {
        let fd = wlslider_timerfd_create()
        guard fd >= 0 else { return nil }
        file = OwnedFileDescriptor(fd)
        self.loop = loop
        token = loop.addSource(fd: fd, events: .readable) { _ in
            let count = readTimerExpirations(fd)
            if count > 0 { onExpiry(count) }
        }
    }

    deinit {
        loop?.removeSource(token)
    }

    func arm(initial: UInt64, interval: UInt64) {
        _ = wlslider_timerfd_arm(file.rawValue, initial, interval)
    }

    func disarm() {
        _ = wlslider_timerfd_arm(file.rawValue, 0, 0)
    }
}

final class Keyboard {
    private unowned let seat: Seat
    /// Copied from the seat: a deinit must not read the seat, which may be deinitialising itself.
    private let hasRelease: Bool
    private let proxy: OpaquePointer
    private let context: OpaquePointer?
    private var keymap: XKBKeymap?
    private weak var focus: SliderSurface?
    private var repeater = KeyRepeater()
    private var timer: RepeatTimer?
    private var modifiers: Modifiers = []
    /// The compositor's timestamp of the last key press and when it arrived here, so repeats carry
    /// timestamps in the compositor's time base (which need not be CLOCK_MONOTONIC: KWin's is not).
    private var lastPress: (time: UInt32, arrival: MonotonicInstant)?

    init(seat: Seat) {
        self.seat = seat
        hasRelease = seat.devicesHaveRelease
        proxy = wl_seat_get_keyboard(seat.proxy)
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        wl_keyboard_add_listener(proxy, Listeners.keyboard, Unmanaged.passUnretained(self).toOpaque())
        loopAttached()
    }

    deinit {
        timer = nil
        keymap = nil
        if let context { xkb_context_unref(context) }
        if hasRelease { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
    }

    /// Creates the repeat timer once the connection is attached to a loop (no loop: no repeat).
    func loopAttached() {
        guard timer == nil, let loop = seat.connection.loop else { return }
        timer = RepeatTimer(loop: loop) { [unowned self] count in repeatExpired(count) }
    }

    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { _ = Glibc.close(fd) }
        apply(repeater.stop())
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, let context else {
            keymap = nil
            return
        }
        // A keymap that does not compile leaves keys undecoded (keysym 0) rather than killing the app.
        keymap = XKBKeymap(context: context, fd: fd, size: size)
    }

    func enter(surface: OpaquePointer?) {
        focus = seat.connection.surface(for: surface)
        deliver(.enter)
    }

    func leave(surface: OpaquePointer?) {
        apply(repeater.stop())
        deliver(.leave)
        focus = nil
    }

    func key(time: UInt32, code: UInt32, pressed: Bool) {
        guard focus != nil else { return }
        let keysym = keymap?.keysym(code: code) ?? 0
        deliver(.key(keysym: keysym, code: code, state: pressed ? .pressed : .released, modifiers: modifiers, time: time))
        if pressed {
            lastPress = (time, .now())
            apply(repeater.pressed(code: code, keysym: keysym, keyRepeats: keymap?.repeats(code: code) ?? false))
        } else {
            apply(repeater.released(code: code))
        }
    }

    func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let keymap else { return }
        keymap.update(depressed: depressed, latched: latched, locked: locked, group: group)
        let current = keymap.modifiers
        guard current != modifiers else { return }
        modifiers = current
        deliver(.modifiers(current))
    }

    func repeatInfo(rate: Int32, delay: Int32) {
        apply(repeater.update(RepeatInfo(rate: rate, delay: delay)))
    }

    /// The seat lost its keyboard: stop repeating and tell the focused surface.
    func deviceRemoved() {
        apply(repeater.stop())
        deliver(.deviceRemoved)
        focus = nil
    }

    private func repeatExpired(_ count: UInt64) {
        guard let (keysym, times) = repeater.expired(count: count), let code = repeater.repeating?.code else { return }
        let now = lastPress.map { repeatTimestamp(pressTime: $0.time, pressedAt: $0.arrival, now: .now()) } ?? 0
        for _ in 0..<times {
            deliver(.key(keysym: keysym, code: code, state: .repeated, modifiers: modifiers, time: now))
        }
    }

    private func apply(_ command: KeyRepeater.TimerCommand) {
        switch command {
        case let .arm(initial, interval): timer?.arm(initial: initial, interval: interval)
        case .disarm: timer?.disarm()
        case .unchanged: break
        }
    }

    private func deliver(_ event: KeyboardEvent) {
        guard let focus else { return }
        focus.delegate?.surface(focus, keyboard: event)
    }
}
