import Testing
@testable import SliderEngine

@Suite("Timing curves")
struct TimingCurveTests {
    @Test("ease-in matches an independent evaluation of cubic-bezier(0.42, 0, 1, 1) within 1e-9")
    func easeInMatchesReference() {
        for i in 0...1000 {
            let x = Double(i) / 1000
            #expect(abs(TimingCurve.easeIn(x) - referenceEaseIn(x)) < 1e-9, "at x = \(x)")
        }
    }

    @Test("every preset starts at 0, ends at 1 and never goes back")
    func presetsAreMonotonic() {
        for curve in [TimingCurve.easeIn, .easeOut, .easeInOut, .linear] {
            #expect(curve(0) == 0)
            #expect(curve(1) == 1)
            var previous = 0.0
            for i in 1...2000 {
                let y = curve(Double(i) / 2000)
                #expect(y >= previous - 1e-12, "\(curve) goes back at \(i)")
                previous = y
            }
        }
    }

    @Test("ease-in starts slowly and ends at full speed")
    func easeInShape() {
        #expect(TimingCurve.easeIn(0.25) < 0.25 / 2)
        #expect(TimingCurve.easeIn.slope(at: 0.02) < 0.1)
        #expect(TimingCurve.easeIn.slope(at: 0.999) > 1.5)
    }

    @Test("sampling with a carried hint gives the same values as fresh solves")
    func hintDoesNotChangeValues() {
        var hint = 0.0
        for i in 0...4800 {
            let x = Double(i) / 4800
            #expect(abs(TimingCurve.easeIn.value(at: x, hint: &hint) - TimingCurve.easeIn(x)) < 1e-12)
        }
    }

    @Test("the audio-rate sampler gives the values of fresh solves, for runs starting anywhere and any spacing",
          arguments: [TimingCurve.easeIn, .easeOut, .easeInOut, .linear, TimingCurve(x1: 0.9, y1: -0.5, x2: 0.05, y2: 1.6),
                      TimingCurve(x1: 0, y1: 1, x2: 1, y2: 0)])
    func samplerMatchesFreshSolves(curve: TimingCurve) {
        // 48 kHz over a 0.25 s jump, 0.03 s drag and 2 s; and runs that begin mid-way or before 0.
        for (first, step, count) in [(0.0, 1 / 12_000.0, 12_001), (0.0, 1 / 1440.0, 1441), (0.37, 1 / 96_000.0, 5000),
                                     (-0.01, 1 / 500.0, 520), (0.999, 1 / 48_000.0, 60)] {
            var sampler = TimingCurveSampler(curve)
            var worst = 0.0
            for i in 0..<count {
                let x = first + Double(i) * step
                worst = max(worst, abs(sampler.value(at: x) - curve(x)))
            }
            #expect(worst < 1e-12, "\(curve) from \(first) by \(step): off by \(worst)")
        }
    }
}
