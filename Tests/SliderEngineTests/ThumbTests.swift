import Testing
@testable import SliderEngine

/// Seed 000, "Animating the UISlider thumb on touch": the thumb grows ×2 over 0.3 s while held and
/// shrinks back over 0.3 s after.
@Suite("Thumb grows while held (seed 000)")
struct ThumbTests {
    @Test("scale is 2 at 0.3 s after touch-down and 1 at 0.3 s after lift")
    func growsAndShrinks() {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(3), onTrack(25)), at: 1)
        #expect(s.appearance(at: 1).thumbScale == 1)
        let mid = s.appearance(at: 1.15).thumbScale
        #expect(mid > 1 && mid < 2)
        #expect(s.appearance(at: 1.3).thumbScale == 2)
        #expect(s.appearance(at: 1.3).thumbRadius == 20)
        s.handle(.release(.touch(3)), at: 2)
        #expect(s.appearance(at: 2).thumbScale == 2)
        #expect(s.appearance(at: 2.3).thumbScale == 1)
        #expect(s.appearance(at: 2.3).thumbRadius == 10)
        #expect(!s.isAnimating(at: 2.3))
    }

    @Test("a lift mid-growth shrinks from the current scale, without a jump")
    func retargetsFromCurrentScale() {
        var s = makeSlider(value: 25)
        s.handle(.press(.pointer, onTrack(25)), at: 0)
        let reached = s.appearance(at: 0.1).thumbScale
        s.handle(.release(.pointer), at: 0.1)
        #expect(s.appearance(at: 0.1).thumbScale == reached)
        #expect(s.appearance(at: 0.1001).thumbScale <= reached + 1e-9)
        #expect(s.appearance(at: 0.4).thumbScale == 1)
    }

    @Test("the thumb scale and its duration are options")
    func options() {
        var s = makeSlider(value: 25) { $0.thumbScale = 1.5; $0.thumbDuration = 0.1 }
        s.handle(.press(.pointer, s.appearance(at: 0).thumbCenter), at: 0)
        #expect(s.appearance(at: 0.1).thumbScale == 1.5)
    }
}
