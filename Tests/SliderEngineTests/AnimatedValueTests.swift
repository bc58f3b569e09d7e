import Testing
@testable import SliderEngine

/// Seed 001, "Audio animation in iOS": a jump does not step the value; the presented value glides,
/// 0.25 s ease-in on touch-down, 0.03 s while dragging, and the emitted stream follows it.
@Suite("Animated value (seed 001)")
struct AnimatedValueTests {
    @Test("a tap at 75 % from 25 % glides along the ease-in curve and ends exactly on 75 at 0.25 s")
    func tapGlidesAlongEaseIn() {
        var s = makeSlider(value: 25)
        _ = s.advance(to: 0.9)
        do { let used = s.handle(.press(.touch(0), onTrack(75)), at: 1.0); #expect(used) }
        var frames = run(&s, from: 1.0, to: 1.04)
        do { let used = s.handle(.release(.touch(0)), at: 1.05); #expect(used) }
        frames += run(&s, from: 1.05, to: 1.4)
        for i in 0...1200 {
            let t = 1.0 + Double(i) / 4800  // 0 … 0.25 s at 4.8 kHz
            let expected = 25 + 50 * referenceEaseIn((t - 1.0) / 0.25)
            #expect(abs(s.value(at: t) - expected) < 1e-6, "at t = \(t)")
        }
        #expect(s.value(at: 1.25) == 75)
        #expect(s.value(at: 1.249) < 75)

        let values = frames.flatMap(\.samples).map(\.value)
        #expect(values.last == 75, "the last emitted value is exactly the target")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "rises monotonically")
        #expect(Set(values).count >= 15)
        #expect(frames.last.map { !$0.isAnimating } == true)
    }

    @Test("each movement of a drag glides over 0.03 s from the presented value")
    func dragGlidesOverThirtyMilliseconds() {
        var s = makeSlider(value: 25)
        s.handle(.press(.pointer, onTrack(25)), at: 0)  // on the thumb: no jump
        #expect(s.value(at: 0.01) == 25)
        s.handle(.move(.pointer, onTrack(35)), at: 1)
        #expect(s.target == 35)
        let expected = 25 + 10 * referenceEaseIn(0.5)
        #expect(abs(s.value(at: 1.015) - expected) < 1e-6)
        #expect(s.value(at: 1.03) == 35)
    }

    @Test("a new target while gliding starts from the presented value, never from the old target")
    func retargetStartsFromPresented() {
        var s = makeSlider(value: 0)
        try! s.setTarget(100, at: 0)  // 0.25 s glide
        let midway = s.value(at: 0.1)
        #expect(midway > 0 && midway < 50)
        s.handle(.press(.touch(0), onTrack(10)), at: 0.1)  // a jump back down to 10
        #expect(abs(s.value(at: 0.1 + 1e-9) - midway) < 1e-6, "continuous at the new target")
        #expect(s.value(at: 0.35) == 10)
        // And going the same way never steps backwards first.
        var up = makeSlider(value: 0)
        try! up.setTarget(50, at: 0)
        let before = up.value(at: 0.2)
        up.handle(.press(.touch(0), onTrack(90)), at: 0.2)
        var previous = before
        for i in 1...300 {
            let v = up.value(at: 0.2 + Double(i) / 1000)
            #expect(v >= previous, "reversed at step \(i)")
            previous = v
        }
    }

    @Test("a drag during a jump glide redirects it without restarting from zero speed")
    func dragDuringJumpKeepsPace() {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(0), onTrack(75)), at: 0)
        let before = s.value(at: 0.1), slope = (s.value(at: 0.1) - s.value(at: 0.099)) / 0.001
        s.handle(.move(.touch(0), onTrack(76)), at: 0.1)
        #expect(abs(s.value(at: 0.1) - before) < 1e-9)
        let after = (s.value(at: 0.101) - s.value(at: 0.1)) / 0.001
        #expect(after > slope * 0.9, "keeps its speed (\(after) vs \(slope))")
        #expect(s.value(at: 0.25) == 76, "and arrives when the jump would have")
    }

    @Test("spring glide keeps its velocity across new targets and never overshoots")
    func springKeepsVelocity() {
        var s = makeSlider(value: 0) { $0.glide = .spring }
        try! s.setTarget(50, at: 0)
        let v1 = (s.value(at: 0.1) - s.value(at: 0.0999)) / 0.0001
        try! s.setTarget(100, at: 0.1)
        let v2 = (s.value(at: 0.1001) - s.value(at: 0.1)) / 0.0001
        #expect(abs(v2 - v1) / v1 < 0.05, "velocity carried over: \(v1) → \(v2)")
        var previous = 0.0, t = 0.1
        while s.isAnimating(at: t) {
            let v = s.value(at: t)
            #expect(v <= 100 && v >= previous - 1e-9)
            previous = v
            t += 0.001
        }
        #expect(s.value(at: t) == 100, "ends exactly on the target")
        #expect(t < 2, "and ends")
        // Reversing: the value turns toward the new target at once rather than coasting away.
        try! s.setTarget(0, at: 3)
        try! s.setTarget(100, at: 3.05)
        let turned = s.value(at: 3.05)
        #expect(s.value(at: 3.06) >= turned)
    }

    @Test("value(at:) at audio rate: fill matches per-sample evaluation and allocates nothing")
    func audioRateFill() {
        var s = makeSlider(value: 25)
        s.handle(.press(.touch(0), onTrack(75)), at: 1)
        let count = 48_000 / 2
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
        defer { buffer.deallocate() }
        var span = buffer.mutableSpan
        s.fill(&span, from: 0.9, sampleRate: 48_000)
        for i in stride(from: 0, to: count, by: 7) {
            let t = 0.9 + Double(i) / 48_000
            #expect(buffer[i] == Float(s.value(at: t)), "sample \(i)")
        }
        #expect(buffer[count - 1] == 75)
        // Zipper-free: no step between samples larger than the steepest part of the glide.
        let bound = Float(50 * 1.7242 / 0.25 / 48_000) * 1.001
        #expect(zip(buffer, buffer.dropFirst()).allSatisfy { abs($1 - $0) <= bound })
    }
}
