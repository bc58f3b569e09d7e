/// `--exec CMD [ARG...]`: an argv template. `{value}`, `{percent}` and `{phase}` are replaced inside
/// any argument after the command (`{percent}%` → `42.00%`); any other text, braces included, is
/// kept as written. There is no shell: each argument reaches the program as one argv entry, so
/// `;`, `$(…)`, backticks or spaces in a template or a substituted value are just characters.
public struct ExecTemplate: Equatable, Sendable {
    /// The placeholders that are substituted.
    public static let placeholders = ["{value}", "{percent}", "{phase}"]

    /// The template as given: program (looked up in PATH when it has no `/`) and its arguments.
    public let arguments: [String]

    /// A template; the program may not be empty or contain a placeholder.
    public init(arguments: [String]) throws(OutputOptionError) {
        guard let program = arguments.first, !program.isEmpty else {
            throw OutputOptionError("--exec: needs a command, e.g. --exec wpctl set-volume @DEFAULT_AUDIO_SINK@ {percent}%")
        }
        if Self.containsPlaceholder(program) {
            throw OutputOptionError("--exec: the command \"\(program)\" itself may not contain a placeholder; put {value}, {percent} or {phase} in its arguments")
        }
        self.arguments = arguments
    }

    /// The argv for one run, with the placeholders replaced by these texts.
    public func expand(value: String, percent: String, phase: String) -> [String] {
        [arguments[0]] + arguments.dropFirst().map { argument in
            guard argument.contains("{") else { return argument }
            return Self.substitute(argument, ["{value}": value, "{percent}": percent, "{phase}": phase])
        }
    }

    /// Whether `text` holds a placeholder.
    private static func containsPlaceholder(_ text: String) -> Bool {
        firstPlaceholder(in: text[...]) != nil
    }

    /// The first placeholder in `text`: where it starts, and which it is. Found with the standard
    /// library's own calls: a string's `contains` or `firstRange` of another string comes from
    /// _StringProcessing, whose use alone links its 445 protocol conformance records into the binary
    /// (each first dynamic cast at start scans them all).
    private static func firstPlaceholder(in text: Substring) -> (start: String.Index, placeholder: String)? {
        var rest = text
        while let open = rest.firstIndex(of: "{") {
            let tail = rest[open...]
            if let placeholder = placeholders.first(where: { tail.hasPrefix($0) }) { return (open, placeholder) }
            rest = tail.dropFirst()
        }
        return nil
    }

    /// Left-to-right replacement in one pass, so a substituted text is never scanned again
    /// (a value can never turn into another placeholder).
    private static func substitute(_ argument: String, _ table: [String: String]) -> String {
        var result = ""
        var rest = argument[...]
        while let (start, placeholder) = firstPlaceholder(in: rest) {
            result += rest[..<start]
            result += table[placeholder, default: placeholder]
            rest = rest[start...].dropFirst(placeholder.count)
        }
        return result + rest
    }
}
