// Time: the monotonic clock, and a seam so the event loop and the app's clock can run on a clock
// a test turns by hand.
internal import Glibc

/// A point on `CLOCK_MONOTONIC`, in nanoseconds.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an unspecified start (boot).
    public var nanoseconds: UInt64

    /// Creates an instant from a nanosecond count.
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The current time on `CLOCK_MONOTONIC`.
    public static func now() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }

    /// Seconds since the clock's start, as a Double.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// This instant moved by `nanoseconds` (negative moves back, never below 0; never past the end).
    public func advanced(byNanoseconds delta: Int64) -> MonotonicInstant {
        if delta >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(UInt64(delta))
            return MonotonicInstant(nanoseconds: overflow ? .max : sum)
        }
        let back = delta.magnitude
        return MonotonicInstant(nanoseconds: back > nanoseconds ? 0 : nanoseconds - back)
    }

    /// This instant moved by `milliseconds` (any finite number; NaN counts as 0).
    public func advanced(byMilliseconds milliseconds: Double) -> MonotonicInstant {
        let nanoseconds = (milliseconds * 1_000_000).rounded()
        guard nanoseconds == nanoseconds else { return self }
        return advanced(byNanoseconds: Int64(saturating: nanoseconds))
    }

    /// Nanoseconds from `earlier` to this instant (0 when `earlier` is later).
    public func nanoseconds(since earlier: MonotonicInstant) -> UInt64 {
        nanoseconds >= earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0
    }

    /// Earlier-than.
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

extension Int64 {
    /// The nearest Int64 to a finite or infinite Double (NaN is the caller's to exclude).
    init(saturating value: Double) {
        if value >= 9.2e18 { self = .max } else if value <= -9.2e18 { self = .min } else { self = Int64(value) }
    }
}

/// Unix time in seconds (`CLOCK_REALTIME`): for timestamps others read, such as OSC timetags.
public func wallClockSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Where the event loop and the app read the time: the system's monotonic clock, or a clock a test
/// advances by hand.
public protocol MonotonicClock: AnyObject {
    /// The current instant.
    func now() -> MonotonicInstant
}

/// `CLOCK_MONOTONIC`.
public final class SystemClock: MonotonicClock, Sendable {
    /// The process-wide instance.
    public static let shared = SystemClock()
    /// Creates a clock reading `CLOCK_MONOTONIC`.
    public init() {}
    /// `MonotonicInstant.now()`.
    public func now() -> MonotonicInstant { .now() }
}

/// A clock that moves only when told to: timers and the app's clock rules under test.
public final class ManualClock: MonotonicClock {
    private var current: MonotonicInstant

    /// Starts at `start`.
    public init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000_000)) {
        current = start
    }

    /// The instant the clock stands at.
    public func now() -> MonotonicInstant { current }

    /// Moves the clock forward.
    public func advance(byMilliseconds milliseconds: Double) {
        current = current.advanced(byMilliseconds: milliseconds)
    }

    /// Sets the clock (may go back, to test how callers cope).
    public func set(_ instant: MonotonicInstant) {
        current = instant
    }
}
