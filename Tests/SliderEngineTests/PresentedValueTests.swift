import PropertyBased
import Testing
@testable import SliderEngine

/// `Slider.presentation`, the plain copy of the presented value's course that a real-time thread
/// evaluates, against the slider's own `value(at:)`.
@Suite("PresentedValue: the course a real-time thread evaluates")
struct PresentedValueTests {
    /// Over random sessions (curve and spring glides, drags, keys, outside targets), a
    /// presentation taken after each step gives the slider's own value at every audio sample of
    /// the following pause, with and without the sampler's carried solver state.
    @Test func matchesTheSlidersValueAtAudioRate() async {
        await propertyCheck(count: 120, input: configurationGen, stepGen.array(of: 1...25)) { config, steps in
            var s = try! Slider(configuration: config, value: 40)
            var t = 0.0
            let dt = 1.0 / 48_000
            for step in steps {
                switch step.action {
                case .input(let input): s.handle(input, at: t)
                case .setTarget(let v): try? s.setTarget(v, at: t)
                case .moveTarget(let d): try? s.moveTarget(by: d, at: t)
                }
                let course = s.presentation
                var sampler = PresentedValue.Sampler()
                var worst = 0.0
                var u = t
                while u < t + step.pause + 0.01 {
                    let expected = s.value(at: u)
                    #expect(course.value(at: u) == expected)
                    worst = max(worst, abs(course.value(at: u, sampler: &sampler) - expected))
                    u += dt
                }
                #expect(worst <= 1e-6, "sampler off by \(worst) after \(step)")
                #expect(course.target == s.target)
                t += step.pause
            }
        }
    }

    /// `since` is the slider's time at the change; the course ends when the value reaches its target.
    @Test func sinceIsTheTimeOfTheChangeAndEndTimeTheGlidesEnd() throws {
        var s = makeSlider(value: 25)
        try s.setTarget(75, at: 2)
        let course = s.presentation
        #expect(course.since == 2)
        #expect(course.endTime == 2 + s.configuration.jumpDuration)
        #expect(course.value(at: 2) == 25 && course.value(at: course.endTime) == 75)
        #expect(course.minimum == 0 && course.maximum == 100)
        // Frames do not change the course, only a new target does.
        _ = s.advance(to: 2.1)
        #expect(s.presentation.hasSameCourse(as: course))
        try s.setTarget(10, at: 2.2)
        #expect(!s.presentation.hasSameCourse(as: course))
    }

    /// Before any course arrives, a reader holds the resting value.
    @Test func restingHoldsOneValueAtAnyTime() {
        let rest = PresentedValue.resting(at: 12, range: 0...100)
        #expect(rest.value(at: -1e9) == 12 && rest.value(at: 1e9) == 12)
        #expect(rest.endTime <= 0)
    }
}
