import Posix
import Testing
@testable import SliderApp

/// AppClock's rules, on a clock the test turns: the compositor's millisecond stamps become engine
/// seconds, extrapolated between stamps, unwrapped across 2³², and resynchronised when a
/// compositor's time base jumps (KWin's two bases, a stale first stamp) — never sent back, never
/// leaping a glide to its end.
@Suite struct ClockTests {
    /// A clock at 1000 s of monotonic time, and an AppClock started on it.
    private func makeClock() -> (ManualClock, AppClock) {
        let manual = ManualClock(start: MonotonicInstant(nanoseconds: 1_000_000_000_000))
        return (manual, AppClock(clock: manual))
    }

    @Test func startsAtZeroAndFollowsTheClock() {
        let (manual, clock) = makeClock()
        #expect(clock.now() == 0)
        manual.advance(byMilliseconds: 250)
        #expect(abs(clock.now() - 0.25) < 1e-9)
    }

    @Test func stampsKeepTheirSpacingAndTimeIsExtrapolatedBetweenThem() {
        let (manual, clock) = makeClock()
        manual.advance(byMilliseconds: 100)
        let first = clock.time(ofStamp: 5_000)
        #expect(abs(first - 0.1) < 1e-9, "the first stamp is pinned to now")
        manual.advance(byMilliseconds: 16)
        #expect(abs(clock.time(ofStamp: 5_016) - (first + 0.016)) < 1e-9)
        manual.advance(byMilliseconds: 5)
        #expect(abs(clock.now() - (first + 0.021)) < 1e-9, "between stamps, time runs on from the last one")
    }

    @Test func thirtyTwoBitStampsUnwrap() {
        let (manual, clock) = makeClock()
        let before = clock.time(ofStamp: UInt32.max - 7)
        manual.advance(byMilliseconds: 16)
        let after = clock.time(ofStamp: 8)  // 16 ms later, across the wrap
        #expect(abs(after - before - 0.016) < 1e-9)
    }

    /// A stamp on another time base, far ahead: the engine's time carries on from where it stood
    /// instead of leaping; afterwards only a frame's lead is allowed.
    @Test func aStampFarAheadIsResynchronisedWithoutALeap() {
        let (manual, clock) = makeClock()
        let base = clock.time(ofStamp: 1_000)
        manual.advance(byMilliseconds: 16)
        let jumped = clock.time(ofStamp: 900_000)  // 899 s ahead
        #expect(abs(jumped - (base + 0.016)) < 1e-9)
        manual.advance(byMilliseconds: 16)
        #expect(abs(clock.time(ofStamp: 900_016) - (jumped + 0.016)) < 1e-9, "the new base is followed")
        manual.advance(byMilliseconds: 16)
        // 100 ms ahead is beyond the allowance after a resync (20 ms): carried on again.
        let ahead = clock.time(ofStamp: 900_132)
        #expect(abs(ahead - (jumped + 0.032)) < 1e-9)
    }

    /// A stamp far behind (a stale presentation time, KWin after idle): no freezing, no going back.
    @Test func aStampFarBehindIsResynchronised() {
        let (manual, clock) = makeClock()
        _ = clock.time(ofStamp: 50_000)
        manual.advance(byMilliseconds: 30_000)
        let stale = clock.time(ofStamp: 51_000)  // claims 1 s passed; 30 s did
        #expect(abs(stale - 30.0) < 1e-9)
    }

    /// A stamp far behind the last one, even when both lie within ten seconds of our own clock's
    /// time since start: a jump to another base that lags.
    @Test func aStampJumpingBackIsResynchronised() {
        let (manual, clock) = makeClock()
        manual.advance(byMilliseconds: 5_000)
        let first = clock.time(ofStamp: 100_000)
        manual.advance(byMilliseconds: 16)
        let back = clock.time(ofStamp: 88_000)  // 12 s back, 16 ms after
        #expect(abs(back - (first + 0.016)) < 1e-9)
    }

    /// A clock that runs slower than ours (a test's virtual clock, stepped 16 ms at a time while
    /// 700 ms pass) is followed stamp by stamp, however far behind ours it drifts: no step leaps
    /// by the real time between stamps, before or after the drift passes ten seconds.
    @Test func aSlowClockIsFollowedWithoutLeaps() {
        let (manual, clock) = makeClock()
        var stamp: UInt32 = 7_000
        var previous = clock.time(ofStamp: stamp)
        for step in 1...30 {
            manual.advance(byMilliseconds: 700)
            stamp += 16
            let t = clock.time(ofStamp: stamp)
            #expect(abs(t - previous - 0.016) < 1e-9, "step \(step), \(Double(step) * 0.684) s behind ours: \(t - previous) s")
            previous = t
        }
        #expect(clock.now() >= previous, "now() runs on from the last stamp")
    }

    /// A compositor whose clock stands still (every frame stamped alike): time runs on from the
    /// last stamp that moved, as between stamps, and a stamp that moves on is followed again.
    @Test func aStampStandingStillGivesTimeSinceTheLastThatMoved() {
        let (manual, clock) = makeClock()
        let first = clock.time(ofStamp: 40_000)
        for frame in 1...30 {
            manual.advance(byMilliseconds: 16)
            #expect(abs(clock.time(ofStamp: 40_000) - (first + 0.016 * Double(frame))) < 1e-9, "frame \(frame)")
        }
        manual.advance(byMilliseconds: 16)
        #expect(abs(clock.time(ofStamp: 40_496) - (first + 0.496)) < 1e-9, "31 frames of 16 ms: the stamp moved on with them")
    }

    /// A stamp a little behind the last (a frame's presentation time after an input event
    /// stamped later) does not send time back: it is now, as extrapolated.
    @Test func aStampALittleBehindIsNow() {
        let (manual, clock) = makeClock()
        let input = clock.time(ofStamp: 10_020)
        manual.advance(byMilliseconds: 3)
        #expect(abs(clock.time(ofStamp: 10_016) - (input + 0.003)) < 1e-9)
        manual.advance(byMilliseconds: 13)
        #expect(abs(clock.time(ofStamp: 10_036) - (input + 0.016)) < 1e-9, "the next stamp that moves is followed")
    }
}
