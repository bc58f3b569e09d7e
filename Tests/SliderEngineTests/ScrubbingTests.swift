import Testing
@testable import SliderEngine

/// Seed 004, OBSlider: the further the finger strays from the track (across it, from where the
/// gesture began), the slower the value follows: 1, 0.5, 0.25, 0.1 past 0, 50, 100, 150 px.
@Suite("Variable scrubbing speed (seed 004)")
struct ScrubbingTests {
    /// Grabs the thumb at 25 %, moves straight off the track by `offset`, then 40 px along it.
    func valueAfterDrag(offset: Double) -> Double {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(0), onTrack(25)), at: 0)
        s.handle(.move(.touch(0), onTrack(25, y: 24 + offset)), at: 0.1)
        s.handle(.move(.touch(0), SliderPoint(x: x(ofPercent: 25) + 40, y: 24 + offset)), at: 0.2)
        return s.target
    }

    let fullSpeed = 40 / travel * 100

    @Test("on the track, the value follows the finger 1:1")
    func fullSpeedOnTrack() {
        #expect(abs(valueAfterDrag(offset: 0) - (25 + fullSpeed)) < 1e-9)
        #expect(abs(valueAfterDrag(offset: 30) - (25 + fullSpeed)) < 1e-9)
    }

    @Test("a drag 100 px off the track moves the value at half speed")
    func halfSpeed() {
        #expect(abs(valueAfterDrag(offset: 100) - (25 + fullSpeed / 2)) < 1e-9)
        #expect(abs(valueAfterDrag(offset: -75) - (25 + fullSpeed / 2)) < 1e-9, "either side")
    }

    @Test("past 100 px a quarter, past 150 px a tenth")
    func slowerFurtherOut() {
        #expect(abs(valueAfterDrag(offset: 120) - (25 + fullSpeed / 4)) < 1e-9)
        #expect(abs(valueAfterDrag(offset: 400) - (25 + fullSpeed / 10)) < 1e-9)
    }

    @Test("coming back to the track, the thumb catches up with the finger")
    func meetsTheFinger() {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(0), onTrack(25)), at: 0)
        s.handle(.move(.touch(0), onTrack(25, y: 124)), at: 0.1)
        s.handle(.move(.touch(0), SliderPoint(x: x(ofPercent: 25) + 40, y: 124)), at: 0.2)
        let slow = s.target
        s.handle(.move(.touch(0), SliderPoint(x: x(ofPercent: 25) + 40, y: 74)), at: 0.3)
        let closer = s.target
        #expect(closer > slow, "partly caught up on the way back")
        s.handle(.move(.touch(0), SliderPoint(x: x(ofPercent: 25) + 40, y: 24)), at: 0.4)
        #expect(abs(s.target - (25 + fullSpeed)) < 1e-9, "under the finger again once on the track")
        #expect(abs(s.appearance(at: 0.5).thumbCenter.x - (x(ofPercent: 25) + 40)) < 1e-9)
    }

    @Test("the finger's value is clamped to the range, so nothing drifts at the ends")
    func noDriftAtEnds() {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(0), onTrack(25)), at: 0)
        s.handle(.move(.touch(0), SliderPoint(x: 2000, y: 24)), at: 0.1)
        #expect(s.target == 100)
        s.handle(.move(.touch(0), SliderPoint(x: 2000 - travel / 2, y: 24)), at: 0.2)
        #expect(abs(s.target - 50) < 1e-9, "moving back half the travel gives half the range at once")
    }

    @Test("speeds and offsets are options")
    func customZones() {
        let zones = Scrubbing(speeds: [1, 0.2], offsets: [0, 10])
        #expect(zones.speed(atDistance: 10) == 1)
        #expect(zones.speed(atDistance: 10.5) == 0.2)
    }
}
