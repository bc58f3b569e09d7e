import Testing
@testable import SliderEngine

@Suite("Keyboard and wheel")
struct KeyboardWheelTests {
    @Test("arrows move by 1 % of the range, Page Up/Down by 10 %, Home/End to the ends, all gliding")
    func keys() {
        var s = makeSlider(value: 50)
        s.handle(.key(.increment, isRepeat: false), at: 0)
        #expect(s.target == 51)
        #expect(s.value(at: 0.1) > 50 && s.value(at: 0.1) < 51, "glides")
        s.handle(.key(.decrement, isRepeat: false), at: 1)
        s.handle(.key(.decrement, isRepeat: false), at: 1)
        #expect(s.target == 49)
        s.handle(.key(.pageUp, isRepeat: false), at: 2)
        #expect(s.target == 59)
        s.handle(.key(.pageDown, isRepeat: false), at: 3)
        s.handle(.key(.pageDown, isRepeat: false), at: 3)
        #expect(s.target == 39)
        s.handle(.key(.end, isRepeat: false), at: 4)
        #expect(s.target == 100)
        s.handle(.key(.increment, isRepeat: false), at: 4)
        #expect(s.target == 100, "clamped")
        s.handle(.key(.home, isRepeat: false), at: 5)
        #expect(s.target == 0)
        #expect(s.value(at: 5.25) == 0)
    }

    @Test("the step, when set, is the arrow key's move; key repeats follow closely")
    func stepAndRepeat() {
        var s = makeSlider(value: 50) { $0.step = 5 }
        s.handle(.key(.increment, isRepeat: false), at: 0)
        #expect(s.target == 55)
        s.handle(.key(.increment, isRepeat: true), at: 1)
        #expect(s.value(at: 1.03) == 60, "a repeat glides over the drag duration")
    }

    @Test("keys are ignored while a gesture holds the slider")
    func keysDuringGesture() {
        var s = makeSlider(value: 50)
        s.handle(.press(.pointer, onTrack(50)), at: 0)
        do { let used = s.handle(.key(.end, isRepeat: false), at: 0.1); #expect(!used) }
        #expect(s.target == 50)
    }

    @Test("one wheel detent (120) is one step; fractions of value120 accumulate")
    func wheelDetents() {
        var s = makeSlider(value: 50)
        s.handle(.wheel(value120: -120, axis: .vertical), at: 0)
        #expect(s.target == 51, "scrolling up raises the value")
        s.handle(.wheel(value120: 120, axis: .vertical), at: 1)
        s.handle(.wheel(value120: 120, axis: .vertical), at: 1)
        #expect(s.target == 49)
        s.handle(.wheel(value120: -60, axis: .vertical), at: 2)
        #expect(s.target == 49, "half a detent moves nothing yet")
        s.handle(.wheel(value120: -30, axis: .vertical), at: 2.1)
        s.handle(.wheel(value120: -40, axis: .vertical), at: 2.2)
        #expect(s.target == 50, "but the halves add up, and the remainder (10) is kept")
        s.handle(.wheel(value120: -110, axis: .vertical), at: 3)
        #expect(s.target == 51)
        s.handle(.wheel(value120: 120, axis: .horizontal), at: 4)
        #expect(s.target == 52, "scrolling right raises the value")
    }

    @Test("a burst of detents arrives together instead of lagging behind")
    func wheelBurst() {
        var s = makeSlider(value: 50)
        for i in 0..<10 { s.handle(.wheel(value120: -120, axis: .vertical), at: Double(i) * 0.01) }
        #expect(s.target == 60)
        #expect(s.value(at: 0.25) == 60)
    }

    @Test("continuous scrolling maps pixels through the track length")
    func continuousScroll() {
        var s = makeSlider(value: 50)
        s.handle(.scroll(pixels: -27.6, axis: .vertical), at: 0)
        #expect(abs(s.target - 60) < 1e-9)
        s.handle(.scroll(pixels: 13.8, axis: .horizontal), at: 1)
        #expect(abs(s.target - 65) < 1e-9)
        var stepped = makeSlider(value: 50) { $0.step = 10 }
        for _ in 0..<4 { stepped.handle(.scroll(pixels: -6.9, axis: .vertical), at: 0) }
        #expect(stepped.target == 60, "small scrolls accumulate toward the next step")
    }
}
