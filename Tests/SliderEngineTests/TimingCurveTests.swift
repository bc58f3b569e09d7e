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
}
