import ArgumentParser
import SliderApp
import SliderEngine
import SliderOutput
import SliderRender

extension Orientation: ExpressibleByArgument {}
extension ScreenEdge: ExpressibleByArgument {}
extension GlideMode: ExpressibleByArgument {}
extension OutputCurve: ExpressibleByArgument {}
extension OutputFormat.Style: ExpressibleByArgument {}

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
enum CurveArgument: String, ExpressibleByArgument, CaseIterable {
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
    /// The text given.
    var text: String
    /// The size, or nil when `text` is not one.
    var size: SliderSize?

    init?(argument: String) {
        text = argument
        let parts = argument.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...Self.limit).contains(w), (1...Self.limit).contains(h) else { return }
        size = SliderSize(width: Double(w), height: Double(h))
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
