import Posix
import Testing
@testable import WaylandClient

@Suite struct KeyRepeatTests {
    @Test func timingFromRepeatInfo() throws {
        let timing = try #require(RepeatInfo(rate: 25, delay: 600).timerNanoseconds)
        #expect(timing.initial == 600_000_000)
        #expect(timing.interval == 40_000_000)
        let odd = try #require(RepeatInfo(rate: 33, delay: 250).timerNanoseconds)
        #expect(odd.interval == 30_303_030)
    }

    @Test func rateZeroMeansNoRepeat() {
        #expect(RepeatInfo(rate: 0, delay: 600).timerNanoseconds == nil)
        #expect(RepeatInfo(rate: -5, delay: 600).timerNanoseconds == nil)
        var repeater = KeyRepeater()
        _ = repeater.update(RepeatInfo(rate: 0, delay: 300))
        #expect(repeater.pressed(code: 105, keysym: Keysym.left, keyRepeats: true) == .unchanged)
        #expect(repeater.repeating == nil)
    }

    @Test func zeroDelayStillArmsTheTimer() throws {
        let timing = try #require(RepeatInfo(rate: 2000, delay: 0).timerNanoseconds)
        #expect(timing.initial == 1)
        #expect(timing.interval == 1_000_000)
    }

    @Test("the repeat timer fires after the delay, then once per interval, with the count of the repeats a late loop missed; disarmed, it is off the loop")
    func repeatTimerOnTheLoopClock() throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        var counts: [UInt64] = []
        let timer = RepeatTimer(loop: loop) { counts.append($0) }
        timer.arm(initial: 400_000_000, interval: 25_000_000)
        clock.advance(byMilliseconds: 399)
        try loop.runOnce()
        #expect(counts.isEmpty)
        clock.advance(byMilliseconds: 1)
        try loop.runOnce()
        #expect(counts == [1])
        clock.advance(byMilliseconds: 25)
        try loop.runOnce()
        #expect(counts == [1, 1])
        // The loop was held up for 100 ms: the four repeats due come as one count, and the next is
        // due on the original beat (25 ms after the last one due), not 25 ms after the late call.
        clock.advance(byMilliseconds: 110)
        try loop.runOnce()
        #expect(counts == [1, 1, 4])
        clock.advance(byMilliseconds: 14)
        try loop.runOnce()
        #expect(counts == [1, 1, 4])
        clock.advance(byMilliseconds: 1)
        try loop.runOnce()
        #expect(counts == [1, 1, 4, 1])
        timer.disarm()
        #expect(loop.timerCount == 0)
        clock.advance(byMilliseconds: 1000)
        try loop.runOnce()
        #expect(counts == [1, 1, 4, 1])
        // Re-armed with no interval: one expiry only.
        timer.arm(initial: 1, interval: 0)
        clock.advance(byMilliseconds: 1)
        try loop.runOnce()
        clock.advance(byMilliseconds: 100)
        try loop.runOnce()
        #expect(counts == [1, 1, 4, 1, 1])
        #expect(loop.timerCount == 0)
    }

    @Test func pressArmsReleaseDisarms() {
        var repeater = KeyRepeater()
        _ = repeater.update(RepeatInfo(rate: 40, delay: 400))
        #expect(repeater.pressed(code: 106, keysym: Keysym.right, keyRepeats: true)
                == .arm(initialNanoseconds: 400_000_000, intervalNanoseconds: 25_000_000))
        #expect(repeater.released(code: 105) == .unchanged)
        #expect(repeater.released(code: 106) == .disarm)
        #expect(repeater.expired(count: 1) == nil)
    }

    @Test func modifiersDoNotRepeatAndDoNotStopARepeat() {
        var repeater = KeyRepeater()
        _ = repeater.pressed(code: 106, keysym: Keysym.right, keyRepeats: true)
        #expect(repeater.pressed(code: 42, keysym: 0xffe1, keyRepeats: false) == .unchanged)
        #expect(repeater.repeating?.code == 106)
        #expect(repeater.released(code: 42) == .unchanged)
    }

    @Test func aNewRepeatingKeyTakesOver() {
        var repeater = KeyRepeater()
        _ = repeater.pressed(code: 106, keysym: Keysym.right, keyRepeats: true)
        _ = repeater.pressed(code: 105, keysym: Keysym.left, keyRepeats: true)
        #expect(repeater.expired(count: 1)?.keysym == Keysym.left)
        #expect(repeater.released(code: 106) == .unchanged)
    }

    @Test func expirationsAreDeliveredUpToABurst() {
        var repeater = KeyRepeater()
        _ = repeater.pressed(code: 104, keysym: Keysym.pageUp, keyRepeats: true)
        #expect(repeater.expired(count: 3)?.times == 3)
        #expect(repeater.expired(count: 100)?.times == Int(KeyRepeater.maximumBurst))
        #expect(repeater.expired(count: 0) == nil)
    }

    @Test func stopAndNewInfoEndARepeat() {
        var repeater = KeyRepeater()
        _ = repeater.pressed(code: 104, keysym: Keysym.pageUp, keyRepeats: true)
        #expect(repeater.stop() == .disarm)
        #expect(repeater.stop() == .unchanged)
        _ = repeater.pressed(code: 104, keysym: Keysym.pageUp, keyRepeats: true)
        #expect(repeater.update(RepeatInfo(rate: 10, delay: 100)) == .disarm)
        #expect(repeater.info == RepeatInfo(rate: 10, delay: 100))
    }

    @Test func repeatTimestampsFollowTheCompositorClock() {
        let pressed = MonotonicInstant(nanoseconds: 5_000_000_000)
        #expect(repeatTimestamp(pressTime: 136_453_040, pressedAt: pressed, now: pressed.advanced(byMilliseconds: 660.4)) == 136_453_700)
        #expect(repeatTimestamp(pressTime: .max - 10, pressedAt: pressed, now: pressed.advanced(byMilliseconds: 20)) == 9)
        #expect(repeatTimestamp(pressTime: 7, pressedAt: pressed, now: pressed.advanced(byNanoseconds: -1)) == 7)
    }


    @Test func keysymNamesComeFromXkbcommon() {
        #expect(Keysym.name(Keysym.left) == "Left")
        #expect(Keysym.name(Keysym.pageDown) == "Next")
        #expect(Keysym.name(Keysym.home) == "Home")
        #expect(Keysym.left == 0xff51)
    }
}
