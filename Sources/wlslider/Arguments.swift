import ArgumentParser
import SliderApp
import SliderEngine
import SliderOutput
import SliderRender

/// An option's values, each named by its raw value. argument-parser's own `allValueStrings` for
/// such types maps `allCases` through a key path, which the runtime instantiates anew for every
/// option at every start (about 10 µs each); a closure costs nothing to make.
protocol NamedArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension NamedArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    public var defaultValueDescription: String { rawValue }
}

extension Orientation: NamedArgument {}
extension ScreenEdge: NamedArgument {}
extension GlideMode: NamedArgument {}
extension OutputCurve: NamedArgument {}
extension OutputFormat.Style: NamedArgument {}

extension TrackShape: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "capsule": self = .capsule
        case "wedge": self = .wedge
        default: return nil
        }
    }
    public static var allValueStrings: [String] { ["capsule", "wedge"] }
}

/// `--curve`: Core Animation's named timing functions.
enum CurveArgument: String, NamedArgument {
    case easeIn = "ease-in", easeOut = "ease-out", easeInOut = "ease-in-out", linear

    var curve: TimingCurve {
        switch self {
        case .easeIn: .easeIn
        case .easeOut: .easeOut
        case .easeInOut: .easeInOut
        case .linear: .linear
        }
    }
}

/// `WxH` in logical pixels. Any text is accepted here and checked in `makeOptions`, so that a
/// bad size gets a message saying what a size looks like rather than argument-parser's bare
/// "is invalid".
struct SizeArgument: ExpressibleByArgument {
    /// The largest side accepted.
    static let limit = 16384
    /// The largest area accepted: 2^25 pixels (e.g. 8192x4096). The window's two buffers must fit
    /// one wl_shm pool, whose size is a 32-bit number (2 GiB): this leaves room up to scale 2.
    static let areaLimit = 1 << 25
    /// The text given.
    var text: String
    /// Whole numbers of pixels, each side within 1...limit, or nil when `text` is not that.
    var sides: (width: Int, height: Int)?

    init?(argument: String) {
        text = argument
        let parts = argument.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...Self.limit).contains(w), (1...Self.limit).contains(h) else { return }
        sides = (w, h)
    }

    /// The size, or nil when `text` is not one or the area is too large.
    var size: SliderSize? {
        guard let sides, sides.width * sides.height <= Self.areaLimit else { return nil }
        return SliderSize(width: Double(sides.width), height: Double(sides.height))
    }
}

/// `#RRGGBB` or `#RRGGBBAA`.
struct ColorArgument: ExpressibleByArgument {
    var color: Color
    init?(argument: String) {
        guard let color = Color(hex: argument) else { return nil }
        self.color = color
    }
}

/// A comma-separated list of numbers.
struct NumberList: ExpressibleByArgument {
    var numbers: [Double]
    init(_ numbers: [Double]) { self.numbers = numbers }

    init?(argument: String) {
        var numbers: [Double] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let n = Double(part.trimmingWhitespace()), n.isFinite else { return nil }
            numbers.append(n)
        }
        self.numbers = numbers
    }

    /// The numbers as the user would type them: `1,0.5`, `1e+300` (no conversion that can trap).
    var defaultValueDescription: String {
        numbers.map(\.compact).joined(separator: ",")
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
