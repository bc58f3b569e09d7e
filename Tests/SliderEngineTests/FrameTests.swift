import Testing
@testable import SliderEngine

@Suite("Frames: what changed, what to emit")
struct FrameTests {
    @Test("the first frame draws everything and emits the initial value once")
    func firstFrame() {
        var s = makeSlider(value: 25)
        let f = s.advance(to: 0)
        #expect(f.damage == [SliderRect(x: 0, y: 0, width: 320, height: 48)])
        #expect(f.samples == [ValueSample(time: 0, value: 25, phase: .idle)])
        #expect(!f.isAnimating)
        let idle = s.advance(to: 5)
        #expect(!idle.needsRedraw && idle.samples.isEmpty && !idle.isAnimating, "nothing to do while idle")
    }

    @Test("a moving thumb damages old ∪ new thumb bounds and the fill between, nothing else")
    func thumbDamage() {
        var s = makeSlider(value: 25)
        _ = s.advance(to: 0)
        s.handle(.key(.increment, isRepeat: false), at: 0)
        let f = s.advance(to: 0.25)
        #expect(f.damage.count == 2)
        let oldX = x(ofPercent: 25), newX = x(ofPercent: 26)
        #expect(f.damage[0] == SliderRect(x: oldX - 10, y: 14, width: newX - oldX + 20, height: 20))
        #expect(f.damage[1] == SliderRect(x: oldX, y: 21, width: newX - oldX, height: 6))
        #expect(!f.isAnimating)
    }

    @Test("a growing thumb damages its bounds; an edge slide damages the whole surface")
    func scaleAndShiftDamage() {
        var s = makeSlider(value: 50) { $0.edge = .left; $0.orientation = .vertical }
        _ = s.advance(to: 0)
        s.handle(.press(.touch(0), SliderPoint(x: 5, y: 160)), at: 0)
        let f = s.advance(to: 0.1)
        #expect(f.damage == [SliderRect(x: 0, y: 0, width: 48, height: 320)])
        var plain = makeSlider(value: 50)
        _ = plain.advance(to: 0)
        plain.handle(.press(.touch(0), onTrack(50)), at: 0)
        let grow = plain.advance(to: 0.1)
        let r = grow.appearance.thumbRadius
        #expect(grow.damage == [SliderRect(x: 160 - r, y: 24 - r, width: 2 * r, height: 2 * r)])
        #expect(grow.isAnimating)
    }

    @Test("a resize or range change repaints everything")
    func fullRepaints() throws {
        var s = makeSlider(value: 50)
        _ = s.advance(to: 0)
        s.resize(to: SliderSize(width: 400, height: 48))
        #expect(s.advance(to: 1).damage == [SliderRect(x: 0, y: 0, width: 400, height: 48)])
        try s.setRange(minimum: 0, maximum: 200, at: 2)
        #expect(s.advance(to: 2).damage == [SliderRect(x: 0, y: 0, width: 400, height: 48)])
    }

    @Test("an outside target during a gesture waits for the gesture to end")
    func externalWaitsForGesture() throws {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(0), onTrack(25)), at: 0)
        try s.setTarget(80, at: 0.1)
        #expect(s.target == 25, "the gesture wins")
        try s.moveTarget(by: 5, at: 0.15)
        s.handle(.release(.touch(0)), at: 0.2)
        #expect(s.target == 85, "applied when the finger lifts")
        #expect(s.value(at: 0.45) == 85)
    }
}
