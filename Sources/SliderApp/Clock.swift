import Posix

/// The engine's clock: seconds since start, on the compositor's time base where it gives one.
///
/// Frame callbacks and input events carry the compositor's millisecond timestamps, which feed the
/// engine so animations advance by presentation time and input lands at the time it happened.
/// Their base is unspecified (CLOCK_MONOTONIC on every compositor seen here; a test compositor may
/// run a virtual clock), so the first stamp fixes an offset to the app's monotonic clock. Between
/// stamps, time is extrapolated from the last one with the monotonic clock. A compositor clock
/// that runs ahead of ours by over a second is resynchronised, and so is a stamp that falls more
/// than ten seconds behind the last one's time extrapolated to now (a stale stamp, or a jump to
/// another base): animations can neither stall nor leap because of it.
///
/// A stamp that does not move on from the last one (a stale presentation time, a stamp of
/// another base that lags this one, a compositor whose clock stands still) tells nothing new:
/// time then runs on from the last stamp that moved, as between stamps. A glide still ends in
/// its own duration under a compositor that stamps every frame with the same time.
///
/// The lag is judged from the last stamp, not from the first: a clock that simply runs slower
/// than ours, such as a test compositor's virtual clock stepped 16 ms at a time by a test on a
/// loaded machine, drifts behind by any amount over a long run without ever jumping. Judged
/// from the first stamp, that drift once crossed ten seconds in the middle of a glide, and the
/// resynchronisation carried the engine on by the real time since the last step.
///
/// After the first resynchronisation a stamp may run ahead by only `resyncedAllowance`: such a
/// compositor is not a test's virtual clock running ahead on purpose, and KWin 5.27 needs it.
/// KWin stamps fake-input events on another base than frame callbacks (so every switch between
/// the two resynchronises), and its first frame callback after an idle spell carries the previous
/// presentation time, hundreds of milliseconds old. Synced to such a stale stamp, the next,
/// current one would look that far ahead and a glide would leap to its end in one frame.
final class AppClock {
    /// Where monotonic time comes from (the system's, or a test's manual clock).
    private let source: any MonotonicClock
    /// Monotonic seconds at start.
    let origin: Double
    private var lastStamp: (milliseconds: Int64, raw: UInt32, time: Double, monotonic: Double)?
    private var offset: Double?
    /// How far (seconds) a stamp may run ahead of our clock before it is resynchronised.
    private var aheadAllowance = 1.0
    /// `aheadAllowance` once stamps needed resynchronising: about one frame.
    static let resyncedAllowance = 0.02
    /// How far (seconds) a stamp may fall behind the last one's time extrapolated to now.
    static let lagAllowance = 10.0

    init(clock: any MonotonicClock = SystemClock.shared) {
        source = clock
        origin = clock.now().seconds
    }

    /// The latest `now()` returned: `now()` never goes back, even when a stamp pulls the
    /// extrapolation back a little (a compositor whose clock lags ours).
    private var latest = -Double.infinity

    /// Seconds since start now: extrapolated from the last compositor timestamp, never less than
    /// what it returned before.
    func now() -> Double {
        let m = monotonicSeconds()
        let extrapolated = extrapolatedFromLastStamp(to: m) ?? m - origin
        latest = max(latest, extrapolated)
        return latest
    }

    /// The engine time of a compositor timestamp (milliseconds, wrapping at 2³²).
    func time(ofStamp raw: UInt32) -> Double {
        let m = monotonicSeconds()
        let ms = unwrap(raw)
        if let last = lastStamp, ms <= last.milliseconds, let t = extrapolatedFromLastStamp(to: m) {
            return t
        }
        let seconds = Double(ms) / 1000
        let offset = self.offset ?? seconds - m
        var t = seconds - offset - origin
        let ours = m - origin
        let lag = lastStamp.map { (m - $0.monotonic) - Double(ms - $0.milliseconds) / 1000 } ?? 0
        if t > ours + aheadAllowance || lag > Self.lagAllowance {
            // Carry on from where the engine's time stands, so that the resynchronisation
            // neither freezes animations (time sent back) nor makes them leap (sent forward).
            t = extrapolatedFromLastStamp(to: m) ?? ours
            aheadAllowance = Self.resyncedAllowance
        }
        self.offset = seconds - t - origin
        lastStamp = (ms, raw, t, m)
        return t
    }

    /// The last stamp's engine time carried on to monotonic seconds `m`; nil before any stamp.
    private func extrapolatedFromLastStamp(to m: Double) -> Double? {
        lastStamp.map { $0.time + (m - $0.monotonic) }
    }

    /// Continues the millisecond count across the 32-bit wrap (every 49.7 days).
    private func unwrap(_ raw: UInt32) -> Int64 {
        guard let last = lastStamp else { return Int64(raw) }
        return last.milliseconds + Int64(Int32(bitPattern: raw &- last.raw))
    }

    /// The source's monotonic time in seconds.
    private func monotonicSeconds() -> Double { source.now().seconds }
}
