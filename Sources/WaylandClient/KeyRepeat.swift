// Pure key-repeat timing: which key repeats, when the timer fires, and what to deliver.
import Posix

/// `wl_keyboard.repeat_info`: `rate` repeats per second (0 = no repeat) after `delay` milliseconds.
public struct RepeatInfo: Equatable, Sendable {
    /// Repeats per second; 0 (or less) disables repeat.
    public var rate: Int32
    /// Milliseconds from the press to the first repeat.
    public var delay: Int32

    /// Creates repeat settings.
    public init(rate: Int32, delay: Int32) {
        self.rate = rate
        self.delay = delay
    }

    /// Used until the compositor sends `repeat_info` (keyboards of seat < 4 never do); Xorg's defaults.
    public static let fallback = RepeatInfo(rate: 25, delay: 600)

    /// The timer settings (first expiry, period) in nanoseconds, or nil for no repeat. The first
    /// expiry is at least 1 ns. Rates above 1000/s repeat every millisecond.
    public var timerNanoseconds: (initial: UInt64, interval: UInt64)? {
        guard rate > 0 else { return nil }
        let initial = max(UInt64(max(delay, 0)) * 1_000_000, 1)
        let interval = max(1_000_000_000 / UInt64(rate), 1_000_000)
        return (initial, interval)
    }
}

/// Decides what the repeat timer does as keys go down and up, and what its expirations deliver.
struct KeyRepeater {
    /// What to do with the timer.
    enum TimerCommand: Equatable {
        case arm(initialNanoseconds: UInt64, intervalNanoseconds: UInt64)
        case disarm
        case unchanged
    }

    /// At most this many repeats are delivered for one wake-up, however late the loop ran.
    static let maximumBurst: UInt64 = 8

    private(set) var info = RepeatInfo.fallback
    /// The key now repeating: evdev code and the keysym it produced when pressed.
    private(set) var repeating: (code: UInt32, keysym: UInt32)?

    /// A key went down. A key that repeats (per the keymap) takes over the timer; others leave it.
    mutating func pressed(code: UInt32, keysym: UInt32, keyRepeats: Bool) -> TimerCommand {
        guard keyRepeats, let timing = info.timerNanoseconds else { return .unchanged }
        repeating = (code, keysym)
        return .arm(initialNanoseconds: timing.initial, intervalNanoseconds: timing.interval)
    }

    /// A key went up: stops the repeat if it was the repeating key.
    mutating func released(code: UInt32) -> TimerCommand {
        guard repeating?.code == code else { return .unchanged }
        return stop()
    }

    /// Focus left, the keymap changed or the keyboard went away.
    mutating func stop() -> TimerCommand {
        guard repeating != nil else { return .unchanged }
        repeating = nil
        return .disarm
    }

    /// New `repeat_info`: applies to the next press; a running repeat stops.
    mutating func update(_ info: RepeatInfo) -> TimerCommand {
        self.info = info
        return stop()
    }

    /// The timer expired `count` times: the keysym to deliver and how often (capped), or nil when no
    /// key repeats (a late expiry after release).
    func expired(count: UInt64) -> (keysym: UInt32, times: Int)? {
        guard let repeating, count > 0 else { return nil }
        return (repeating.keysym, Int(min(count, KeyRepeater.maximumBurst)))
    }
}

/// A repeat's timestamp in the compositor's millisecond clock: the press's timestamp plus the time
/// elapsed here since the press arrived (wrapping like the protocol's 32-bit milliseconds).
func repeatTimestamp(pressTime: UInt32, pressedAt: MonotonicInstant, now: MonotonicInstant) -> UInt32 {
    let elapsed = now.nanoseconds >= pressedAt.nanoseconds ? (now.nanoseconds - pressedAt.nanoseconds) / 1_000_000 : 0
    return pressTime &+ UInt32(truncatingIfNeeded: elapsed)
}
