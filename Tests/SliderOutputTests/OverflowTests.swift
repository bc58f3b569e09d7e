import Testing
@testable import SliderOutput

/// Numbers at the ends of Double: a range or scale whose width overflows, values near the largest
/// finite magnitude. Nothing emitted may be NaN or infinite, except the db curve's silence.
@Suite struct OverflowTests {
    static let wideRanges = [SliderRange(min: -1e308, max: 1e308), SliderRange(min: -.greatestFiniteMagnitude, max: .greatestFiniteMagnitude),
                             SliderRange(min: 0, max: .greatestFiniteMagnitude), SliderRange(min: 5e-324, max: 1e-323)]

    @Test func positionIsFiniteWhenTheRangeWidthOverflows() {
        #expect(SliderRange(min: -1e308, max: 1e308).position(of: 0) == 0.5)
        #expect(SliderRange(min: -1e308, max: 1e308).position(of: 1e308) == 1)
        #expect(SliderRange(min: -1e308, max: 1e308).position(of: -1e308) == 0)
        for range in Self.wideRanges {
            for fraction in stride(from: 0.0, through: 1.0, by: 1.0 / 64) {
                let value = range.min + fraction * (range.max / 2 - range.min / 2) * 2
                guard value.isFinite else { continue }
                let position = range.position(of: min(max(value, range.min), range.max))
                #expect(position.isFinite && position >= 0 && position <= 1, "\(range) at \(value): \(position)")
            }
        }
    }

    @Test func scaleOutputWiderThanADoubleIsAUsageError() {
        for text in ["-1e308:1e308", "1.7976931348623157e308:-1.7976931348623157e308", "-9e307:9e307"] {
            #expect(throws: OutputOptionError.self) { try OutputScale.parse(text) }
            do {
                _ = try OutputScale.parse(text)
            } catch {
                #expect(error.description.hasPrefix("--scale-output: \"\(text)\""), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
        // Wide but representable: accepted.
        #expect((try? OutputScale.parse("-8e307:8e307")) != nil)
    }

    @Test func everyMappingOfAFiniteValueIsFiniteExceptDbSilence() {
        let scales: [OutputScale?] = [nil, OutputScale(lower: 0, upper: 1), OutputScale(lower: -8e307, upper: 8e307),
                                      OutputScale(lower: -1e308, upper: 1e308), OutputScale(lower: 1e308, upper: -1e308),
                                      OutputScale(lower: 0, upper: 5e-324)]
        let values: [Double] = [0, 1, -1, 1e308, -1e308, 1e-308, 5e-324, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for curve in OutputCurve.allCases {
            for scale in scales {
                let mapping = OutputMapping(scale: scale, curve: curve)
                for range in Self.wideRanges + [SliderRange(min: 0, max: 100)] {
                    for value in values {
                        let mapped = mapping.map(value, range: range)
                        #expect(mapped.isFinite || (curve == .db && mapped == -.infinity),
                                "\(curve) \(String(describing: scale)) \(range): \(value) → \(mapped)")
                        var format = OutputFormat.standard
                        format.mapping = mapping
                        var formatter = LineFormatter(format: format)
                        let line = formatter.line(for: ValueSample(time: 0, value: value, phase: .idle), range: range) ?? ""
                        #expect(!line.contains("nan") && (!line.contains("inf") || curve == .db), "\(line)")
                    }
                }
            }
        }
    }

    @Test func audioSamplesSaturateInsteadOfBecomingInfinite() {
        let mapping = OutputMapping(scale: OutputScale(lower: 0, upper: 1e300), curve: .linear)
        var samples: [Float] = [0, 25, 50, 100]
        do { var span = samples.mutableSpan; mapping.apply(to: &span, range: SliderRange(min: 0, max: 100)) }
        #expect(samples.allSatisfy { $0.isFinite }, "\(samples)")
        #expect(samples[0] == 0 && samples[3] == .greatestFiniteMagnitude)
        // The db curve's silence is still −infinity.
        var decibels: [Float] = [0, 100]
        do { var span = decibels.mutableSpan; OutputMapping(scale: nil, curve: .db).apply(to: &span, range: SliderRange(min: 0, max: 100)) }
        #expect(decibels == [-.infinity, 0])
        // The same for one value (OSC's float argument): the identity mapping too.
        let wide = SliderRange(min: -1e308, max: 7e307)
        #expect(OutputMapping.identity.mapToFloat(-1e308, range: wide) == -.greatestFiniteMagnitude)
        #expect(OutputMapping.identity.mapToFloat(7e307, range: wide) == .greatestFiniteMagnitude)
        #expect(OutputMapping(scale: nil, curve: .db).mapToFloat(-1e308, range: wide) == -.infinity)
    }
}
