/// `--format`, `--precision`, `--scale-output`, `--output-curve`: how values become stdout lines.
public struct OutputFormat: Equatable, Sendable {
    /// The line syntax.
    public enum Style: String, Sendable, CaseIterable {
        /// Just the value: `42.50`.
        case plain
        /// `{"t":<ms since start>,"value":<v>,"phase":"idle|began|moved|ended|cancelled"}`.
        case json
    }

    /// The line syntax.
    public var style: Style
    /// Decimals after the point (0…`DecimalText.maximumDecimals`).
    public var precision: Int
    /// What number is emitted for a slider value.
    public var mapping: OutputMapping

    /// The defaults of `wlslider`: plain lines, 2 decimals, the slider's own values.
    public static let standard = OutputFormat(style: .plain, precision: 2, mapping: .identity)

    /// Creates a format.
    public init(style: Style, precision: Int, mapping: OutputMapping) {
        self.style = style
        self.precision = precision
        self.mapping = mapping
    }

    /// Parses `plain` or `json`.
    public static func parseStyle(_ text: String) throws(OutputOptionError) -> Style {
        guard let style = Style(rawValue: text) else {
            throw OutputOptionError("--format: \"\(text)\" is not a format; use plain or json")
        }
        return style
    }

    /// Parses `--precision N` (0…17).
    public static func parsePrecision(_ text: String) throws(OutputOptionError) -> Int {
        guard let digits = Int(text), (0...DecimalText.maximumDecimals).contains(digits) else {
            throw OutputOptionError("--precision: \"\(text)\" is not a whole number from 0 to \(DecimalText.maximumDecimals)")
        }
        return digits
    }

    /// The emitted value as text: mapped, fixed decimals, `-inf` for the db curve's silence.
    public func valueText(_ value: Double, range: SliderRange) -> String {
        DecimalText.fixed(mapping.map(value, range: range), decimals: precision)
    }
}

/// Turns samples into stdout lines (with their `\n`), and drops a line that would repeat the
/// previous one: same value text in plain format; same value text *and* phase in JSON (so a gesture's
/// `ended` is printed even when its value equals the last `moved`). Pure: no I/O, no clock.
///
/// Lines are built into storage the formatter keeps: once it has grown to a line's length, a
/// line costs no allocation.
public struct LineFormatter: Sendable {
    /// The format lines are written in.
    public let format: OutputFormat
    /// The line built by the last `prepareLine` that returned true, with its newline.
    public private(set) var line: [UInt8] = []
    private var valueText: [UInt8] = []
    private var lastValueText: [UInt8] = []
    private var lastPhase: GesturePhase?
    private var printedAny = false

    /// Creates a formatter that has printed nothing yet.
    public init(format: OutputFormat) {
        self.format = format
        line.reserveCapacity(96)
        valueText.reserveCapacity(48)
        lastValueText.reserveCapacity(48)
    }

    /// Builds the line for `sample` into `line`; false (and `line` unchanged) when it would repeat
    /// the previous line.
    public mutating func prepareLine(for sample: ValueSample, range: SliderRange) -> Bool {
        let mapped = format.mapping.map(sample.value, range: range)
        valueText.removeAll(keepingCapacity: true)
        DecimalText.append(mapped, decimals: format.precision, to: &valueText)
        let samePhase = format.style == .plain || lastPhase == sample.phase
        if printedAny && samePhase && valueText == lastValueText { return false }
        printedAny = true
        lastPhase = sample.phase
        lastValueText.removeAll(keepingCapacity: true)
        lastValueText.append(contentsOf: valueText)
        line.removeAll(keepingCapacity: true)
        switch format.style {
        case .plain:
            line.append(contentsOf: valueText)
        case .json:
            line.append(contentsOf: #"{"t":"#.utf8)
            DecimalText.append(Double(Self.milliseconds(sample.time)), decimals: 0, to: &line)
            line.append(contentsOf: #","value":"#.utf8)
            // JSON has no infinity: the db curve's silence is `null`.
            if mapped.isFinite { line.append(contentsOf: valueText) } else { line.append(contentsOf: "null".utf8) }
            line.append(contentsOf: #","phase":""#.utf8)
            line.append(contentsOf: sample.phase.rawValue.utf8)
            line.append(contentsOf: #""}"#.utf8)
        }
        line.append(UInt8(ascii: "\n"))
        return true
    }

    /// The line for `sample` as text, or nil when it would repeat the previous line.
    public mutating func line(for sample: ValueSample, range: SliderRange) -> String? {
        guard prepareLine(for: sample, range: range) else { return nil }
        return String(decoding: line, as: UTF8.self)
    }

    /// Forgets the previous line, so the next sample is printed whatever it is.
    public mutating func reset() {
        printedAny = false
        lastPhase = nil
    }

    /// Whole milliseconds since start, rounded to nearest; 0 for a time that is not a finite non-negative number.
    static func milliseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1000).rounded()
        guard value.isFinite, value >= 0, value < 9.0e15 else { return 0 }
        return Int64(value)
    }
}
