import Testing
@testable import SliderEngine

@Suite("Tracking: one gesture at a time, pointer and touch alike")
struct TrackingTests {
    @Test("a press on the thumb drags it keeping the grab offset: no jump")
    func grabKeepsOffset() {
        var s = makeSlider(value: 25)
        let grab = SliderPoint(x: x(ofPercent: 25) + 6, y: 30)  // right of the thumb's centre
        do { let used = s.handle(.press(.pointer, grab), at: 0); #expect(used) }
        #expect(s.target == 25)
        s.handle(.move(.pointer, SliderPoint(x: grab.x + 27.6, y: 30)), at: 0.1)
        #expect(abs(s.target - 35) < 1e-9)
        #expect(abs(s.appearance(at: 1).thumbCenter.x - (grab.x + 27.6 - 6)) < 1e-9, "offset kept")
    }

    @Test("a press elsewhere on the track jumps to the press point, gliding")
    func pressOnTrackJumps() {
        var s = makeSlider(value: 25)
        do { let used = s.handle(.press(.pointer, onTrack(60, y: 5)), at: 0); #expect(used) }
        #expect(abs(s.target - 60) < 1e-9)
        #expect(s.value(at: 0) == 25)
        #expect(abs(s.value(at: 0.25) - 60) < 1e-9)
    }

    @Test("a touch lands on the thumb within half the slider's thickness; the pointer needs to hit it")
    func touchReachIsGenerous() {
        var touch = makeSlider(value: 25)
        touch.handle(.press(.touch(0), SliderPoint(x: x(ofPercent: 25) + 20, y: 24)), at: 0)
        #expect(touch.target == 25, "a touch 20 px from the centre grabs the thumb")
        var pointer = makeSlider(value: 25)
        pointer.handle(.press(.pointer, SliderPoint(x: x(ofPercent: 25) + 20, y: 24)), at: 0)
        #expect(pointer.target > 25, "a click 20 px from the centre jumps")
    }

    @Test("a press outside the slider is ignored")
    func pressOutsideIgnored() {
        var s = makeSlider(value: 25, size: SliderSize(width: 320, height: 200))
        do { let used = s.handle(.press(.pointer, SliderPoint(x: 200, y: 10)), at: 0); #expect(!used, "above the band") }
        do { let used = s.handle(.press(.pointer, SliderPoint(x: .nan, y: 100)), at: 0); #expect(!used, "not a number") }
        #expect(s.trackingContact == nil)
        do { let used = s.handle(.press(.pointer, SliderPoint(x: 200, y: 100)), at: 0); #expect(used) }
    }

    @Test("only the first finger drives the slider; others are ignored until it lifts")
    func secondFingerIgnored() {
        var s = makeSlider(value: 25)
        do { let used = s.handle(.press(.touch(1), onTrack(75)), at: 0); #expect(used) }
        do { let used = s.handle(.press(.touch(2), onTrack(10)), at: 0.05); #expect(!used) }
        do { let used = s.handle(.move(.touch(2), onTrack(5)), at: 0.06); #expect(!used) }
        do { let used = s.handle(.press(.pointer, onTrack(5)), at: 0.07); #expect(!used) }
        do { let used = s.handle(.release(.touch(2)), at: 0.08); #expect(!used) }
        #expect(abs(s.target - 75) < 1e-9)
        #expect(s.trackingContact == .touch(1))
        do { let used = s.handle(.release(.touch(1)), at: 0.1); #expect(used) }
        do { let used = s.handle(.press(.touch(2), onTrack(10)), at: 0.2); #expect(used, "free again after the lift") }
    }

    @Test("cancel ends the gesture and glides back to the value held before it began")
    func cancelGlidesBack() {
        var s = makeSlider(value: 25)
        _ = s.advance(to: 0)
        s.handle(.press(.touch(0), onTrack(75)), at: 1)
        s.handle(.move(.touch(0), onTrack(90)), at: 1.1)
        let reached = s.value(at: 1.2)
        #expect(reached > 50)
        do { let used = s.handle(.cancel, at: 1.2); #expect(used) }
        #expect(s.trackingContact == nil)
        #expect(s.value(at: 1.2) == reached, "no jump")
        #expect(s.value(at: 1.45) == 25, "back after 0.25 s")
        let phases = run(&s, from: 1.2, to: 1.5).flatMap(\.samples).map(\.phase)
        #expect(Array(phases.prefix(2)) == [.began, .cancelled], "both phases reach the stream, in order")
        do { let used = s.handle(.cancel, at: 2); #expect(!used, "nothing to cancel") }
    }

    @Test("the gesture phases are reported: began, moved, ended")
    func phases() {
        var s = makeSlider(value: 25)
        _ = s.advance(to: 0)
        s.handle(.press(.pointer, onTrack(25)), at: 1)
        let began = s.advance(to: 1.01).samples
        #expect(began.map(\.phase) == [.began])
        #expect(began.first?.value == 25, "reported even though the value has not changed")
        s.handle(.move(.pointer, onTrack(30)), at: 1.02)
        let moved = run(&s, from: 1.03, to: 1.1).flatMap(\.samples)
        #expect(!moved.isEmpty && moved.allSatisfy { $0.phase == .moved })
        s.handle(.release(.pointer), at: 1.2)
        #expect(s.advance(to: 1.21).samples.map(\.phase) == [.ended])
        #expect(run(&s, from: 1.22, to: 2).flatMap(\.samples).isEmpty, "nothing more once at rest")
    }

    @Test("vertical sliders track upward motion as rising value")
    func verticalDrag() {
        var s = makeSlider(value: 50) { $0.orientation = .vertical }
        let thumb = s.appearance(at: 0).thumbCenter
        s.handle(.press(.touch(0), thumb), at: 0)
        s.handle(.move(.touch(0), SliderPoint(x: thumb.x, y: thumb.y - 27.6)), at: 0.1)
        #expect(abs(s.target - 60) < 1e-9)
    }
}
