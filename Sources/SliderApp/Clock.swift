import WaylandClient

/// Seconds on the monotonic clock since the app started: the engine's time base.
struct AppClock: Sendable {
    /// Monotonic seconds at start.
    let origin: Double

    init() { origin = Self.monotonicSeconds() }

    /// Seconds since start.
    func now() -> Double { Self.monotonicSeconds() - origin }

    /// The absolute monotonic time in seconds.
    static func monotonicSeconds() -> Double { Double(MonotonicInstant.now().nanoseconds) / 1e9 }

    /// The engine time of a frame callback timestamp (see `FrameClock`).
    func frameTime(callbackMilliseconds ms: UInt32) -> Double {
        FrameClock.frameTime(callbackMilliseconds: ms, now: Self.monotonicSeconds(), origin: origin)
    }
}
