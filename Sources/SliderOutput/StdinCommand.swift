/// One command read from stdin.
public enum StdinCommand: Equatable, Sendable {
    /// `42` or `set -5`: glide to this value (no gesture phase).
    case setTarget(Double)
    /// `+N` / `-N`: glide by this much from the current target.
    case adjustTarget(by: Double)
    /// `min X`: the slider's new minimum.
    case setMinimum(Double)
    /// `max X`: the slider's new maximum.
    case setMaximum(Double)
    /// `step X` (X > 0), or nil for `step 0` / `step off`: snap to multiples of X from min, or stop snapping.
    case setStep(Double?)
    /// `quit`: exit 0.
    case quit
}

/// A stdin line that was ignored; `description` is the one warning line for stderr, naming the line.
public struct StdinCommandError: Error, Equatable, CustomStringConvertible {
    /// The offending line as received (for an overlong line, its first bytes).
    public let line: String
    /// Why it was rejected.
    public let reason: String

    /// Creates an error for `line`.
    public init(line: String, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// The warning for a line longer than `limit` bytes.
    public static func overlong(prefix: String, limit: Int) -> StdinCommandError {
        StdinCommandError(line: prefix, reason: "longer than \(limit) bytes")
    }

    /// `stdin: ignored line "abc": <reason>` with the line quoted, escaped and cut to 40 characters.
    public var description: String { "stdin: ignored line \(Self.quoted(line)): \(reason)" }

    /// The line in double quotes, control characters and quotes escaped, at most 40 characters then `…`.
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        var result = "\""
        for (count, character) in text.enumerated() {
            if count == limit {
                result += "\"…"
                return result
            }
            result += escaped(character)
        }
        return result + "\""
    }

    private static func escaped(_ character: Character) -> String {
        switch character {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default:
            guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                  scalar.value < 0x20 || scalar.value == 0x7f else { return String(character) }
            let hex = String(scalar.value, radix: 16)
            return "\\x" + (hex.count < 2 ? "0" + hex : hex)
        }
    }
}

/// Parses stdin command lines. Pure.
///
/// Grammar (keywords are case-insensitive; spaces, tabs and a trailing CR around and between words
/// are ignored; numbers are plain decimals such as `12`, `0.5`, `-3`, `1e3`, never `inf`/`nan`/hex):
/// - `N` — absolute target; `set N` too, which is the way to give a negative absolute target,
///   because a leading sign means relative:
/// - `+N` / `-N` — relative to the current target;
/// - `min X`, `max X` — change the range live;
/// - `step X` with X > 0, or `step 0` / `step off` — set or clear the step;
/// - `quit`.
/// An empty line is nothing (no command, no warning).
public enum StdinCommandParser {
    /// The command on `line`, nil for an empty line, or the error to print as a warning.
    public static func parse(_ line: String) -> Result<StdinCommand?, StdinCommandError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard let first = words.first else { return .success(nil) }
        let keyword = first.lowercased()
        func fail(_ reason: String) -> Result<StdinCommand?, StdinCommandError> {
            .failure(StdinCommandError(line: line, reason: reason))
        }
        switch (keyword, words.count) {
        case ("quit", 1):
            return .success(.quit)
        case ("min", 2), ("max", 2), ("set", 2):
            guard let number = parseFinite(words[1]) else { return fail("\"\(words[1])\" is not a finite number") }
            return .success(keyword == "min" ? .setMinimum(number) : keyword == "max" ? .setMaximum(number) : .setTarget(number))
        case ("step", 2):
            return parseStep(words[1], fail: fail)
        case ("quit", _), ("min", _), ("max", _), ("set", _), ("step", _):
            return fail("\(keyword) takes \(keyword == "quit" ? "no argument" : "exactly one number")")
        default:
            guard words.count == 1, let number = parseFinite(first) else {
                return fail("expected a number, +N, -N, set N, min X, max X, step X|off or quit")
            }
            let signed = first.hasPrefix("+") || first.hasPrefix("-")
            return .success(signed ? .adjustTarget(by: number) : .setTarget(number))
        }
    }

    private static func parseStep(
        _ word: Substring, fail: (String) -> Result<StdinCommand?, StdinCommandError>
    ) -> Result<StdinCommand?, StdinCommandError> {
        if word.lowercased() == "off" { return .success(.setStep(nil)) }
        guard let step = parseFinite(word), step >= 0 else {
            return fail("step needs a number ≥ 0 or off, got \"\(word)\"")
        }
        return .success(.setStep(step == 0 ? nil : step))
    }
}
