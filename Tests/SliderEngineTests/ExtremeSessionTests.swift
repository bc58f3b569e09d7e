import PropertyBased
import Testing
@testable import SliderEngine

/// Ranges from the ordinary to the extremes of Double: as wide as a finite span allows, tiny,
/// subnormal, far from zero.
let extremeRanges: [(Double, Double)] = [
    (0, 100), (-8e307, 8e307), (0, 1.7e308), (-1.7e308, 0), (0, 1e-300), (5e-324, 1.5e-323),
    (1e308, 1.7e308), (-1, 1), (1e15, 1e15 + 2),
]

/// A number anywhere on the double line: ordinary, huge, tiny, the largest finite ones.
let anyNumberGen = zip(Gen.int(in: 0...5), Gen.double(in: -1...1)).map { kind, u -> Double in
    switch kind {
    case 0: u * 400
    case 1: u * 1e308
    case 2: u * .greatestFiniteMagnitude
    case 3: u * 1e-300
    case 4: [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 5e-324, -5e-324, 0][min(Int(abs(u) * 5), 4)]
    default: u * 1e6
    }
}

/// A configuration for a session: random shapes (see `shapeConfigurationGen`), an extreme range,
/// an extreme step or none, extreme durations, either glide.
let extremeConfigurationGen = zip(shapeConfigurationGen, Gen.int(in: 0...(extremeRanges.count - 1)),
                                  Gen.int(in: 0...4), Gen.int(in: 0...4), Gen.int(in: 0...1))
    .map { shapes, range, step, duration, glide -> SliderConfiguration in
        var c = shapes
        (c.minimum, c.maximum) = extremeRanges[range]
        c.step = [nil, c.span / 3, c.span, 5e-324, Swift.max(c.span * 1e-17, 5e-324)][step]
        let d = [0, 1e-300, 5e-324, 0.02, 60][duration]
        c.jumpDuration = d
        c.dragDuration = d / 2
        c.thumbDuration = d
        c.glide = glide == 0 ? .curve : .spring
        return c
    }

/// One step of a session on such a slider: presses, moves and releases at any point (on the
/// slider, off it, at ±1e308), keys, wheels and scrolls of any size, targets from outside.
let extremeStepGen = zip(Gen.int(in: 0...11), Gen.int(in: 0...3), Gen.double(in: -0.2...1.2),
                         Gen.double(in: -0.2...1.2), anyNumberGen, Gen.double(in: 0...0.3))
    .map { kind, which, a, b, n, pause -> (pause: Double, action: Action, relative: Bool) in
        let contact = contacts[which]
        // Points are fractions of the surface, scaled when applied; or anywhere at all.
        let p = which == 3 ? SliderPoint(x: n, y: -n) : SliderPoint(x: a, y: b)
        let relative = which != 3
        let action: Action = switch kind {
        case 0, 1, 2: .input(.press(contact, p))
        case 3, 4, 5: .input(.move(contact, p))
        case 6: .input(.release(contact))
        case 7: .input(.cancel)
        case 8: .input(.key(keys[which % keys.count], isRepeat: which == 1))
        case 9: .input(.wheel(value120: [Int.max, Int.min, 120, -360][which], axis: which % 2 == 0 ? .vertical : .horizontal))
        case 10: which % 2 == 0 ? .input(.scroll(pixels: n, axis: .vertical)) : .setTarget(n)
        default: .moveTarget(n)
        }
        return (pause, action, relative)
    }

@Suite("Sessions on extreme sliders")
struct ExtremeSessionTests {
    /// Everything the slider shows and emits at `t` is finite and in the range.
    func check(_ s: Slider, at t: Double, _ context: @autoclosure () -> String) {
        let c = s.configuration
        let v = s.value(at: t)
        #expect(v.isFinite && v >= c.minimum && v <= c.maximum, "value \(v) at \(t): \(context())")
        #expect(s.target.isFinite && s.target >= c.minimum && s.target <= c.maximum, "target \(s.target): \(context())")
        let a = s.appearance(at: t)
        #expect(a.fraction >= 0 && a.fraction <= 1 && a.thumbScale.isFinite && a.shift.isFinite, "\(a): \(context())")
        #expect(a.thumbCenter.isFinite && a.thumbRadius.isFinite && a.fillEnd.isFinite, "\(a): \(context())")
        #expect(isSound(a.track) && isSound(a.visibleBand), "\(a): \(context())")
    }

    @Test("presses, moves, releases, keys, wheels, scrolls and outside targets keep every value finite and in the range")
    func sessions() async {
        await propertyCheck(count: 1000, input: extremeConfigurationGen, sideGen, sideGen, extremeStepGen.array(of: 1...30)) { c, w, h, steps in
            var s = try! Slider(configuration: c, value: c.minimum, size: SliderSize(width: w, height: h))
            let size = s.layout.size
            var t = 0.0
            for step in steps {
                var action = step.action
                if step.relative {
                    // Fractions of the surface, so most presses land on the slider.
                    func scaled(_ p: SliderPoint) -> SliderPoint { SliderPoint(x: p.x * size.width, y: p.y * size.height) }
                    if case .input(.press(let contact, let p)) = action { action = .input(.press(contact, scaled(p))) }
                    if case .input(.move(let contact, let p)) = action { action = .input(.move(contact, scaled(p))) }
                }
                var u = t
                while u < t + step.pause {
                    check(s, at: u, "\(c) during \(steps)")
                    for sample in s.advance(to: u).samples {
                        #expect(sample.value.isFinite && sample.value >= c.minimum && sample.value <= c.maximum, "emitted \(sample)")
                    }
                    u += 1.0 / 60
                }
                t += step.pause
                switch action {
                case .input(let input): s.handle(input, at: t)
                case .setTarget(let v): try? s.setTarget(v, at: t)
                case .moveTarget(let d): try? s.moveTarget(by: d, at: t)
                }
                check(s, at: t, "\(c) after \(action) in \(steps)")
                check(s, at: t + 1e-3, "\(c) after \(action) in \(steps)")
            }
            // The audio-rate view too: every sample finite (Float saturates beyond 3.4e38).
            var block = [Float](repeating: .nan, count: 64)
            do {
                var span = block.mutableSpan
                s.fill(&span, from: t - 0.01, sampleRate: 48_000)
            }
            #expect(block.allSatisfy { $0.isFinite }, "audio block \(block.prefix(4)) for \(c)")
        }
    }

    @Test("outside commands at the extremes of Double are clamped or refused, never infinite")
    func extremeCommands() throws {
        var s = makeSlider(value: 0) { $0.minimum = 0; $0.maximum = 1e308 }
        try s.moveTarget(by: 1e308, at: 0)
        try s.moveTarget(by: 1e308, at: 0)  // 2e308 overflows: clamped to the maximum
        #expect(s.target == 1e308)
        try s.moveTarget(by: -1e308, at: 0)
        try s.moveTarget(by: -1e308, at: 0)
        #expect(s.target == 0)
        try s.setTarget(-1e308, at: 0)
        #expect(s.target == 0)
        // A range whose span overflows is refused and changes nothing.
        #expect(throws: SliderError.self) { try s.setRange(minimum: -1e308, maximum: 1e308, at: 1) }
        #expect(s.configuration.minimum == 0 && s.configuration.maximum == 1e308)
        #expect(throws: SliderError.self) { try s.setRange(minimum: 1e308, maximum: 1e308, at: 1) }
        #expect(throws: SliderError.self) { try s.setStep(.greatestFiniteMagnitude, at: 1) }
        try s.setRange(minimum: -1e308, maximum: 7e307, at: 1)
        try s.setTarget(1, at: 2)
        for t in stride(from: 2.0, through: 3, by: 0.01) { #expect(s.value(at: t).isFinite) }
    }

    @Test("a step too fine for Doubles to count leaves values where they are instead of sending them to an end")
    func tinyStep() throws {
        var s = makeSlider(value: 0) { $0.step = 5e-324 }
        try s.setTarget(42, at: 0)
        #expect(s.target == 42)
        s.handle(.key(.increment, isRepeat: false), at: 1)
        #expect(s.target >= 42 && s.target < 43)
        s.handle(.key(.decrement, isRepeat: false), at: 2)
        #expect(s.target > 41 && s.target <= 42)
    }

    @Test("wheel amounts at the ends of Int neither trap nor overshoot the range")
    func extremeWheel() {
        var s = makeSlider(value: 50)
        s.handle(.wheel(value120: .min, axis: .vertical), at: 0)
        #expect(s.target == 100)
        s.handle(.wheel(value120: .max, axis: .vertical), at: 1)
        #expect(s.target == 0)
        s.handle(.wheel(value120: .max, axis: .horizontal), at: 2)
        s.handle(.wheel(value120: .max, axis: .horizontal), at: 3)
        #expect(s.target == 100)
    }

    @Test("a drag between points a whole Double apart ends at the range's end, not at NaN")
    func extremeDrag() {
        var s = makeSlider(value: 50)
        s.handle(.press(.touch(1), onTrack(50)), at: 0)
        s.handle(.move(.touch(1), SliderPoint(x: -1.7e308, y: 1e308)), at: 0.1)
        s.handle(.move(.touch(1), SliderPoint(x: 1.7e308, y: 24)), at: 0.2)
        #expect(s.target == 100)
        s.handle(.release(.touch(1)), at: 0.3)
        #expect(s.value(at: 1).isFinite && s.value(at: 1) == 100)
    }
}
