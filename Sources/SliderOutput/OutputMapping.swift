/// A bad value for one of the output options; `description` is the one-line message for exit 64.
public struct OutputOptionError: Error, Equatable, CustomStringConvertible {
    /// The complete message, naming the option and the rejected text.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// `--output-curve`: how the slider's position becomes the emitted number.
public enum OutputCurve: String, Sendable, CaseIterable {
    /// The emitted number moves linearly with the slider.
    case linear
    /// The slider is a gain fader in decibels, linear in dB along its travel: position 0 (the very
    /// bottom) is silence and prints `-inf` (JSON: `null`), any position above it maps linearly from
    /// the floor to the top of the dB range (default −60…0 dB, or `--scale-output FLOOR:TOP`).
    /// So the bottom of the travel mutes, the top is unity gain — as on a mixing desk.
    case db

    /// Parses `linear` or `db`.
    public static func parse(_ text: String) throws(OutputOptionError) -> OutputCurve {
        guard let curve = OutputCurve(rawValue: text) else {
            throw OutputOptionError("--output-curve: \"\(text)\" is not a curve; use linear or db")
        }
        return curve
    }
}

/// `--scale-output MIN:MAX`: the range the slider's range is mapped onto.
public struct OutputScale: Equatable, Sendable {
    /// What the slider's min maps to.
    public var lower: Double
    /// What the slider's max maps to.
    public var upper: Double

    /// Creates a scale; `lower > upper` is allowed and inverts the direction.
    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// Parses `MIN:MAX` with finite decimal numbers, e.g. `0:1`, `-60:0`, `1:0`. MAX − MIN must be
    /// finite too: a scale as wide as `-1e308:1e308` would map the slider onto infinities.
    public static func parse(_ text: String) throws(OutputOptionError) -> OutputScale {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let lower = parseFinite(parts[0]), let upper = parseFinite(parts[1]), lower != upper else {
            throw OutputOptionError("--scale-output: \"\(text)\" is not MIN:MAX with two different finite numbers, e.g. 0:1")
        }
        guard (upper - lower).isFinite else {
            throw OutputOptionError("--scale-output: \"\(text)\" is too wide: MAX minus MIN must be a finite number")
        }
        return OutputScale(lower: lower, upper: upper)
    }
}

extension OutputScale {
    /// The point `position` of the way from `lower` to `upper` (0 → lower, 1 → upper). Works on the
    /// halves when `upper − lower` overflows, so a scale built without ``parse(_:)`` still maps
    /// positions in 0…1 to finite numbers.
    func point(at position: Double) -> Double {
        let width = upper - lower
        if width.isFinite { return lower + position * width }
        return 2 * (lower / 2 + position * (upper / 2 - lower / 2))
    }
}

/// Maps a slider value to the number every sink emits: `--scale-output` and `--output-curve` together.
public struct OutputMapping: Equatable, Sendable {
    /// The target range, or nil to emit the slider's own values (linear) / −60…0 dB (db).
    public var scale: OutputScale?
    /// How position becomes output.
    public var curve: OutputCurve

    /// The dB range the db curve uses when no `--scale-output` is given.
    public static let defaultDecibelScale = OutputScale(lower: -60, upper: 0)

    /// The identity: emit the slider's own value.
    public static let identity = OutputMapping(scale: nil, curve: .linear)

    /// Creates a mapping.
    public init(scale: OutputScale?, curve: OutputCurve) {
        self.scale = scale
        self.curve = curve
    }

    /// The emitted number for `value` while the slider spans `range`. Finite for a finite value,
    /// except the db curve's silence (−infinity): a result beyond the largest Double (a value far
    /// outside a narrow range, mapped onto a wide scale) is clamped to it.
    public func map(_ value: Double, range: SliderRange) -> Double {
        switch curve {
        case .linear:
            guard let scale else { return value }
            return Self.finite(scale.point(at: range.position(of: value)))
        case .db:
            let position = range.position(of: value)
            guard position > 0 else { return -.infinity }
            return Self.finite((scale ?? Self.defaultDecibelScale).point(at: position))
        }
    }

    /// ±infinity (an overflow) as ±`greatestFiniteMagnitude`; NaN and finite numbers as they are.
    private static func finite(_ v: Double) -> Double {
        v.isInfinite ? (v < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude) : v
    }

    /// Maps a block of audio-rate samples in place (for the app's `AudioRateWriter` fill function).
    /// The db curve's silence is written as −infinity, like every other sink; an audio tool that
    /// cannot take that should read the linear stream.
    public func apply(to samples: inout MutableSpan<Float>, range: SliderRange) {
        if scale == nil && curve == .linear { return }
        for index in samples.indices {
            samples[index] = mapToFloat(Double(samples[index]), range: range)
        }
    }

    /// ``map(_:range:)`` for a 32-bit sink (audio-rate samples, OSC's `f` argument). A Float ends
    /// near 3.4e38: beyond, the largest Float rather than an infinity that was never asked for;
    /// the db curve's silence stays −infinity.
    public func mapToFloat(_ value: Double, range: SliderRange) -> Float {
        let mapped = map(value, range: range)
        if mapped == -.infinity { return -.infinity }
        return Float(Swift.min(Swift.max(mapped, -Double(Float.greatestFiniteMagnitude)), Double(Float.greatestFiniteMagnitude)))
    }

    /// `{percent}`: the position in the slider's range, 0…100, clamped (a spring's overshoot never
    /// makes `wpctl set-volume` see 103 %).
    public static func percent(_ value: Double, range: SliderRange) -> Double {
        Swift.min(Swift.max(range.position(of: value) * 100, 0), 100)
    }
}

/// A finite number in plain decimal notation (`12`, `-3.5`, `.5`, `1e3`): no `inf`, `nan`, hex or spaces.
/// Swift's `Double(String)` parses in the C locale; this only narrows what it accepts.
func parseFinite<S: StringProtocol>(_ text: S) -> Double? {
    guard !text.isEmpty, text.utf8.allSatisfy({ isDecimalNumberByte($0) }), let value = Double(String(text)) else {
        return nil
    }
    return value.isFinite ? value : nil
}

private func isDecimalNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
         UInt8(ascii: "e"), UInt8(ascii: "E"):
        return true
    default:
        return false
    }
}
