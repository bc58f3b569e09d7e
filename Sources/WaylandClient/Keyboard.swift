// wl_keyboard: the compositor's keymap compiled by xkbcommon, keys turned into keysyms, and key
// repeat timed on the EventLoop (KeyRepeater holds the rules). libxkbcommon is loaded with the
// first keymap compiled (RuntimeLibraries.swift); without it keys are ignored.
internal import CWaylandClient
internal import CXKBCommon
import Posix

/// An xkb keymap and the state that tracks modifiers against it.
final class XKBKeymap {
    let keymap: OpaquePointer
    let state: OpaquePointer

    /// The largest keymap accepted: real ones are 50–100 KiB.
    static let maximumSize = 16 << 20

    /// Why a keymap the compositor sent cannot be used (one line for stderr).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Compiles the keymap text in `fd`, of `size` bytes as the compositor announced. The text is
    /// read with pread, never mapped: a file shorter than announced (or truncated meanwhile) would
    /// make a mapping fault with SIGBUS when read.
    init(context: OpaquePointer, fd: Descriptor, size: UInt32) throws(Failure) {
        guard size > 0 else { throw Failure(description: "the compositor sent an empty keymap") }
        guard Int(size) <= Self.maximumSize else {
            throw Failure(description: "the compositor announced a keymap of \(size) bytes (at most \(Self.maximumSize) accepted)")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(size), alignment: 1)
        defer { buffer.deallocate() }
        var length = 0
        while length < buffer.count {
            let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[length...])
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: chunk, at: length)
            } catch {
                throw Failure(description: "cannot read the compositor's keymap: \(error.error("pread of \(size) bytes"))")
            }
            if count == 0 { break }
            length += count
        }
        // xkbcommon 1.5 rejects the NUL that ends the text as an "unrecognized token": stop before it.
        let text = UnsafeRawBufferPointer(rebasing: buffer[0..<length])
        let textLength = XKBKeymap.textLength(text)
        guard textLength > 0, let keymap = wlslider_xkb_keymap_new_from_buffer(
            context, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), textLength,
            XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            let short = length < Int(size) ? " (its file holds \(length) of the \(size) bytes announced)" : ""
            throw Failure(description: "the compositor's keymap does not compile\(short)")
        }
        guard let state = wlslider_xkb_state_new(keymap) else {
            wlslider_xkb_keymap_unref(keymap)
            throw Failure(description: "xkb_state_new failed for the compositor's keymap")
        }
        self.keymap = keymap
        self.state = state
    }

    /// A new xkb context that logs nothing: xkbcommon prints lines of its own on stderr for every
    /// error in a keymap, and a broken keymap is reported once, as one line of ours. Loads
    /// libxkbcommon if needed; nil without it (`XKBCommonLibrary.failure` says why).
    static func quietContext() -> OpaquePointer? {
        guard XKBCommonLibrary.failure == nil, let context = wlslider_xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        wlslider_xkb_context_set_log_fn(context) { _, _, _, _ in }
        return context
    }

    /// Releases a context from `quietContext()`.
    static func release(_ context: OpaquePointer) {
        wlslider_xkb_context_unref(context)
    }

    /// The length of the keymap text: up to the first NUL, or all of it.
    static func textLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.firstIndex(of: 0) ?? bytes.count
    }

    deinit {
        wlslider_xkb_state_unref(state)
        wlslider_xkb_keymap_unref(keymap)
    }

    /// The xkb keycode of evdev key `code` (evdev + 8), or nil for a code no keymap can hold.
    static func keycode(_ code: UInt32) -> UInt32? {
        code <= XKBKeymap.largestEvdevCode ? code + 8 : nil
    }

    /// xkbcommon's largest keycode (XKB_KEYCODE_MAX, 0xfffffffe) minus the evdev offset.
    static let largestEvdevCode: UInt32 = 0xffff_fffe - 8

    /// The keysym of evdev key `code` under the current state (0 for an impossible code).
    func keysym(code: UInt32) -> UInt32 {
        guard let keycode = XKBKeymap.keycode(code) else { return 0 }
        return wlslider_xkb_state_key_get_one_sym(state, keycode)
    }

    /// Whether the keymap says key `code` repeats (modifiers typically do not).
    func repeats(code: UInt32) -> Bool {
        guard let keycode = XKBKeymap.keycode(code) else { return false }
        return wlslider_xkb_keymap_key_repeats(keymap, keycode) != 0
    }

    func update(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        wlslider_xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    var modifiers: Modifiers {
        var result: Modifiers = []
        let names: [(String, Modifiers)] = [("Shift", .shift), ("Control", .control), ("Mod1", .alt), ("Mod4", .logo)]
        for (name, modifier) in names where wlslider_xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            result.insert(modifier)
        }
        return result
    }
}

/// Key repeat on one of the loop's timers: scheduled only while a key repeats, so it costs nothing
/// (no descriptor in every poll) the rest of the time.
final class RepeatTimer {
    private weak var loop: EventLoop?
    private var timer: EventLoop.Timer?
    private let onExpiry: (UInt64) -> Void
    /// When the next repeat is due, and the repeat interval (0: one expiry only).
    private var deadline = MonotonicInstant(nanoseconds: 0)
    private var interval: UInt64 = 0

    init(loop: EventLoop, onExpiry: @escaping (UInt64) -> Void) {
        self.loop = loop
        self.onExpiry = onExpiry
        timer = loop.makeTimer { [weak self] in self?.expired() }
    }

    deinit {
        if let timer { loop?.cancelTimer(timer) }
    }

    /// Fires with the count of repeats that fell due (more than one when the loop was held up) and
    /// schedules the next on the original beat.
    private func expired() {
        guard let loop, let timer else { return }
        let now = loop.now()
        var count: UInt64 = 1
        if interval > 0 {
            if now.nanoseconds > deadline.nanoseconds { count += (now.nanoseconds - deadline.nanoseconds) / interval }
            deadline = MonotonicInstant(nanoseconds: deadline.nanoseconds &+ count &* interval)
            loop.schedule(timer, at: deadline)
        }
        onExpiry(count)
    }

    func arm(initial: UInt64, interval: UInt64) {
        guard let loop, let timer else { return }
        self.interval = interval
        deadline = MonotonicInstant(nanoseconds: loop.now().nanoseconds &+ initial)
        loop.schedule(timer, at: deadline)
    }

    func disarm() {
        guard let loop, let timer else { return }
        loop.cancelTimer(timer)
    }
}

/// A keymap as the compositor sent it: its file (owned) and the size it announced.
private final class UncompiledKeymap {
    let file: FileDescriptor
    let size: UInt32

    init(file: consuming FileDescriptor, size: UInt32) {
        self.file = file
        self.size = size
    }
}

final class Keyboard {
    private unowned let seat: Seat
    /// Copied from the seat: a deinit must not read the seat, which may be deinitialising itself.
    private let hasRelease: Bool
    private let proxy: OpaquePointer
    /// Made with the first keymap compiled (xkb_context_new reads the include paths), which loads
    /// libxkbcommon.
    private var context: OpaquePointer?
    private var keymap: XKBKeymap?
    /// The compositor's latest keymap, not compiled yet. Compiling takes about a millisecond, and
    /// the compositor sends the keymap during start-up: the first frame does not wait for it. The
    /// first key or modifier compiles it (not the empty modifiers of `enter`).
    private var uncompiled: UncompiledKeymap?
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
        wl_keyboard_add_listener(proxy, Listeners.keyboard, Unmanaged.passUnretained(self).toOpaque())
        loopAttached()
    }

    deinit {
        timer = nil
        keymap = nil
        uncompiled = nil
        if let context { XKBKeymap.release(context) }
        if hasRelease { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
    }

    /// Creates the repeat timer once the connection is attached to a loop (no loop: no repeat).
    func loopAttached() {
        guard timer == nil, let loop = seat.connection.loop else { return }
        timer = RepeatTimer(loop: loop) { [unowned self] count in repeatExpired(count) }
    }

    /// A new keymap replaces the old one; it is compiled when first needed. One that cannot be
    /// used leaves keys undecoded (keysym 0, which the app ignores) with one warning, however many
    /// broken ones follow, until a usable one arrives.
    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        let file = FileDescriptor(owning: fd)
        apply(repeater.stop())
        keymap = nil
        uncompiled = nil
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
            let what = format == WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue ? "no keymap" : "a keymap of unknown format \(format)"
            seat.connection.warn("wl_keyboard: the compositor sent \(what); keys are ignored", once: .keymap)
            return
        }
        uncompiled = UncompiledKeymap(file: file, size: size)
    }

    /// The keymap in use, compiled now if the compositor's latest one has not been yet.
    private func compiledKeymap() -> XKBKeymap? {
        guard let pending = uncompiled else { return keymap }
        uncompiled = nil
        if let reason = XKBCommonLibrary.failure {
            seat.connection.warn("wl_keyboard: libxkbcommon could not be loaded (\(reason)); keys are ignored; "
                + "install libxkbcommon0 for them", once: .keyboardLibrary)
            return nil
        }
        if context == nil { context = XKBKeymap.quietContext() }
        guard let context else { return nil }
        do throws(XKBKeymap.Failure) {
            keymap = try XKBKeymap(context: context, fd: pending.file.descriptor, size: pending.size)
            seat.connection.resolved(.keymap)
        } catch {
            seat.connection.warn("wl_keyboard: \(error); keys are ignored", once: .keymap)
        }
        return keymap
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
        let keymap = compiledKeymap()
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
        // No modifier at all while the keymap waits to be compiled, as `enter` brings when the
        // window gets the focus: a new xkb state starts with none, so there is nothing to apply
        // nor to tell, and compiling (with loading libxkbcommon) waits for the first key.
        if uncompiled != nil, modifiers.isEmpty, depressed | latched | locked | group == 0 { return }
        guard let keymap = compiledKeymap() else { return }
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
