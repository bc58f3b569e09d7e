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
        // it_value 0 would disarm a timerfd.
        let timing = try #require(RepeatInfo(rate: 2000, delay: 0).timerNanoseconds)
        #expect(timing.initial == 1)
        #expect(timing.interval == 1_000_000)
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
