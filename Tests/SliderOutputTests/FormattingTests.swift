import Foundation
import Testing
@testable import SliderOutput

@Suite struct DecimalTextTests {
    @Test(arguments: [
        (0.0, 2, "0.00"), (42.5, 2, "42.50"), (0.125, 2, "0.13"), (1.005, 2, "1.01"), (2.5, 0, "3"),
        (-2.5, 0, "-3"), (0.5, 0, "1"), (0.4999, 0, "0"), (-0.001, 2, "0.00"), (-0.0, 2, "0.00"),
        (-0.005, 2, "-0.01"), (9.995, 2, "10.00"), (99.9999, 3, "100.000"), (123.456, 0, "123"),
        (1e-5, 2, "0.00"), (1e-5, 5, "0.00001"), (Double.leastNonzeroMagnitude, 3, "0.000"), (12, 4, "12.0000"),
        (1e20, 2, "100000000000000000000.00"), (-1.5e16, 1, "-15000000000000000.0"),
        (0.1, 17, "0.10000000000000000"), (Double.infinity, 2, "inf"), (-Double.infinity, 2, "-inf"),
        (Double.nan, 2, "nan"), (3.14159, -4, "3"), (3.14159, 99, "3.14159000000000000"),
    ] as [(Double, Int, String)])
    func fixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(DecimalText.fixed(value, decimals: decimals) == expected)
    }

    /// Against the value itself: the printed number reads back within half a unit of the last
    /// decimal of the input (plus the input's own representation error), never "-0.0…".
    @Test func randomValuesReadBackWithinHalfAUnit() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double.random(in: -6...12, using: &generator))
            let value = Bool.random(using: &generator) ? magnitude : -magnitude
            let decimals = Int.random(in: 0...6, using: &generator)
            let text = DecimalText.fixed(value, decimals: decimals)
            let unit = pow(10, -Double(decimals))
            let readBack = Double(text)!
            #expect(abs(readBack - value) <= unit / 2 + abs(value) * 1e-15, "\(value) with \(decimals) → \(text)")
            #expect(!(text.hasPrefix("-") && readBack == 0), "\(value) → \(text)")
            #expect(text.split(separator: ".").last!.count == decimals || decimals == 0)
        }
    }

    /// Where printf and we may differ is only a decimal tie of the shortest text: elsewhere equal.
    @Test func agreesWithPrintfAwayFromTies() {
        var generator = SystemRandomNumberGenerator()
        var compared = 0
        for _ in 0..<20_000 {
            let value = Double.random(in: -1000...1000, using: &generator)
            let decimals = Int.random(in: 0...4, using: &generator)
            let scaled = abs(value) * pow(10, Double(decimals))
            if abs(scaled - scaled.rounded(.down) - 0.5) < 1e-6 { continue }
            compared += 1
            var printf = String(format: "%.\(decimals)f", value)
            if printf.hasPrefix("-") && printf.allSatisfy({ "-0.".contains($0) }) { printf.removeFirst() }
            #expect(DecimalText.fixed(value, decimals: decimals) == printf)
        }
        #expect(compared > 19_000)
    }
}

@Suite struct LineFormatterTests {
    let range = SliderRange(min: 0, max: 100)

    @Test func plainLinesDropRepeats() {
        var formatter = LineFormatter(format: .standard)
        let values = [25.0, 25.0, 25.001, 30.0, 30.0, 25.0]
        let lines = values.map { formatter.line(for: ValueSample(time: 0, value: $0, phase: .moved), range: range) }
        #expect(lines == ["25.00\n", nil, nil, "30.00\n", nil, "25.00\n"])
    }

    @Test func jsonLinesCarryTimePhaseAndKeepPhaseChanges() {
        var formatter = LineFormatter(format: OutputFormat(style: .json, precision: 1, mapping: .identity))
        let samples = [
            ValueSample(time: 0, value: 25, phase: .idle),
            ValueSample(time: 0.5004, value: 40, phase: .began),
            ValueSample(time: 0.5166, value: 40.04, phase: .moved),
            ValueSample(time: 0.5333, value: 40.01, phase: .ended),
            ValueSample(time: 0.55, value: 40.0, phase: .ended),
        ]
        let lines = samples.compactMap { formatter.line(for: $0, range: range) }
        #expect(lines == [
            "{\"t\":0,\"value\":25.0,\"phase\":\"idle\"}\n",
            "{\"t\":500,\"value\":40.0,\"phase\":\"began\"}\n",
            "{\"t\":517,\"value\":40.0,\"phase\":\"moved\"}\n",
            "{\"t\":533,\"value\":40.0,\"phase\":\"ended\"}\n",
        ])
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["phase"] is String)
        }
    }

    @Test func scaleOutputMapsTheRangeLinearly() throws {
        let format = OutputFormat(style: .plain, precision: 3, mapping: OutputMapping(scale: try OutputScale.parse("0:1"), curve: .linear))
        #expect(format.valueText(25, range: range) == "0.250")
        #expect(format.valueText(100, range: SliderRange(min: 50, max: 150)) == "0.500")
        let inverted = OutputMapping(scale: try OutputScale.parse("10:-10"), curve: .linear)
        #expect(inverted.map(75, range: range) == -5)
    }

    @Test func decibelCurveMutesAtTheBottomAndPrintsNullInJSON() throws {
        let mapping = OutputMapping(scale: nil, curve: try OutputCurve.parse("db"))
        #expect(mapping.map(0, range: range) == -.infinity)
        #expect(mapping.map(100, range: range) == 0)
        #expect(mapping.map(50, range: range) == -30)
        let custom = OutputMapping(scale: OutputScale(lower: -40, upper: 6), curve: .db)
        #expect(custom.map(100, range: range) == 6)
        var plain = LineFormatter(format: OutputFormat(style: .plain, precision: 1, mapping: mapping))
        #expect(plain.line(for: ValueSample(time: 0, value: 0, phase: .idle), range: range) == "-inf\n")
        #expect(plain.line(for: ValueSample(time: 0, value: 75, phase: .idle), range: range) == "-15.0\n")
        var json = LineFormatter(format: OutputFormat(style: .json, precision: 1, mapping: mapping))
        #expect(json.line(for: ValueSample(time: 1, value: 0, phase: .ended), range: range) == "{\"t\":1000,\"value\":null,\"phase\":\"ended\"}\n")
    }

    @Test func mappingAppliesToAudioBlocksInPlace() {
        var samples: [Float] = [0, 25, 50, 100]
        do {
            var span = samples.mutableSpan
            OutputMapping(scale: OutputScale(lower: 0, upper: 1), curve: .linear).apply(to: &span, range: range)
        }
        #expect(samples == [0, 0.25, 0.5, 1])
        var unchanged: [Float] = [3, 4]
        do { var span = unchanged.mutableSpan; OutputMapping.identity.apply(to: &span, range: range) }
        #expect(unchanged == [3, 4])
    }

    @Test func percentIsClampedPosition() {
        #expect(OutputMapping.percent(25, range: range) == 25)
        #expect(OutputMapping.percent(-3, range: range) == 0)
        #expect(OutputMapping.percent(104, range: range) == 100)
        #expect(OutputMapping.percent(5, range: SliderRange(min: 5, max: 5)) == 0)
    }

    @Test func optionParsingErrorsNameTheOptionAndText() {
        #expect(throws: OutputOptionError("--scale-output: \"0:x\" is not MIN:MAX with two different finite numbers, e.g. 0:1")) {
            try OutputScale.parse("0:x")
        }
        #expect(throws: OutputOptionError.self) { try OutputScale.parse("1:1") }
        #expect(throws: OutputOptionError.self) { try OutputScale.parse("inf:1") }
        #expect(throws: OutputOptionError.self) { try OutputScale.parse("0:1:2") }
        #expect(throws: OutputOptionError("--output-curve: \"log\" is not a curve; use linear or db")) { try OutputCurve.parse("log") }
        #expect(throws: OutputOptionError.self) { try OutputFormat.parsePrecision("18") }
        #expect(throws: OutputOptionError.self) { try OutputFormat.parsePrecision("-1") }
        #expect((try? OutputFormat.parsePrecision("0")) == 0)
        #expect((try? OutputFormat.parseStyle("json")) == .json)
        #expect(throws: OutputOptionError.self) { try OutputFormat.parseStyle("yaml") }
    }
}
