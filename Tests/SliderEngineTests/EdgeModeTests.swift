import Testing
@testable import SliderEngine

/// Seed 003, the Telegram edge slider: half hidden beyond a screen edge, it slides in over 0.3 s
/// when a gesture begins on its visible part and slides back after the gesture ends.
@Suite("Edge mode (seed 003)")
struct EdgeModeTests {
    func edgeSlider(_ edge: ScreenEdge = .left) -> Slider {
        makeSlider(value: 50) { $0.edge = edge; $0.orientation = edge.orientation }
    }

    @Test("at rest the slider is half hidden beyond its edge; only the visible half takes input")
    func restsHalfHidden() {
        var s = edgeSlider()
        let a = s.appearance(at: 0)
        #expect(a.shift == 24)
        #expect(a.thumbCenter.x == 0, "centre line on the screen edge")
        #expect(a.visibleBand == SliderRect(x: 0, y: 0, width: 24, height: 320))
        do { let used = s.handle(.press(.touch(0), SliderPoint(x: 30, y: 160)), at: 0); #expect(!used, "the empty half is not the slider") }
    }

    @Test("a gesture on the visible part reveals it over 0.3 s; it slides back after the gesture ends")
    func revealsAndHides() {
        var s = edgeSlider()
        _ = s.advance(to: 0)
        do { let used = s.handle(.press(.touch(0), SliderPoint(x: 10, y: 160)), at: 1); #expect(used) }
        let mid = s.appearance(at: 1.15).shift
        #expect(mid > 0 && mid < 24)
        #expect(s.appearance(at: 1.3).shift == 0)
        #expect(s.appearance(at: 1.3).visibleBand == SliderRect(x: 0, y: 0, width: 48, height: 320))
        let frames = run(&s, from: 1, to: 1.3)
        #expect(frames.dropFirst().contains { $0.inputRegionChanged }, "the input region follows the slide")
        s.handle(.release(.touch(0)), at: 2)
        #expect(s.appearance(at: 2).shift == 0)
        #expect(s.appearance(at: 2.3).shift == 24)
        #expect(!s.isAnimating(at: 2.3))
    }

    @Test("with a hide delay, the slider stays revealed that long after the gesture")
    func hideDelay() {
        var s = makeSlider(value: 50) { $0.edge = .right; $0.orientation = .vertical; $0.edgeHideDelay = 0.5 }
        s.handle(.press(.pointer, SliderPoint(x: 40, y: 160)), at: 0)
        s.handle(.release(.pointer), at: 1)
        #expect(s.appearance(at: 1.4).shift == 0)
        #expect(s.isAnimating(at: 1.4))
        #expect(s.appearance(at: 1.8).shift == 24)
    }

    @Test("every edge hides toward itself")
    func allEdges() {
        #expect(edgeSlider(.right).appearance(at: 0).thumbCenter.x == 48)
        #expect(edgeSlider(.top).appearance(at: 0).thumbCenter.y == 0)
        #expect(edgeSlider(.bottom).appearance(at: 0).thumbCenter.y == 48)
        #expect(edgeSlider(.bottom).appearance(at: 0).visibleBand == SliderRect(x: 0, y: 24, width: 320, height: 24))
    }
}
