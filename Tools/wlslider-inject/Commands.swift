// The injector's command language: one command per line on stdin, parsed into values before
// anything is sent, so a typo is reported with its line number instead of half a gesture.

/// A point in global compositor coordinates (logical pixels, the output layout's space).
struct GlobalPoint: Equatable {
    var x: Double
    var y: Double
}

/// One line of input to the injector.
enum Command: Equatable {
    /// Move the pointer to a point.
    case pointerMove(GlobalPoint)
    /// Press or release the left button.
    case pointerButton(pressed: Bool)
    /// Move the pointer to a point in `steps` equal moves spread over `milliseconds`.
    case pointerGlide(to: GlobalPoint, milliseconds: Int, steps: Int)
    /// Vertical wheel detents; positive scrolls down (towards the user), as `wl_pointer.axis`.
    case wheel(detents: Int)
    /// A finger touches down.
    case touchDown(id: UInt32, at: GlobalPoint)
    /// A finger moves.
    case touchMove(id: UInt32, to: GlobalPoint)
    /// A finger moves in `steps` equal moves spread over `milliseconds`, each followed by a frame.
    case touchGlide(id: UInt32, to: GlobalPoint, milliseconds: Int, steps: Int)
    /// A finger lifts.
    case touchUp(id: UInt32)
    /// The compositor takes the touch sequence away.
    case touchCancel
    /// Ends a group of touch events (`wl_touch.frame` at the client).
    case touchFrame
    /// Waits while still answering the compositor.
    case sleep(milliseconds: Int)
    /// A round trip: everything sent so far has reached the compositor.
    case sync
    /// Prints the rest of the line on stdout once everything before it has been sent, so a script
    /// can tell how far the injector has got.
    case echo(String)
}

/// A line the injector does not understand.
struct CommandError: Error, CustomStringConvertible {
    let line: Int
    let text: String
    let reason: String

    var description: String { "line \(line): \(reason): '\(text)'" }
}

extension Command {
    /// The commands, one per line, for `--help`.
    static let summary = """
        pointer move X Y          move the pointer to global X Y (logical pixels)
        pointer down | up         press or release the left button
        pointer glide X Y MS [N]  move to X Y in N steps (default: one per 10 ms) over MS
        wheel N                   N vertical wheel detents (positive = down)
        touch down ID X Y         a finger touches down at global X Y
        touch move ID X Y         the finger moves
        touch glide ID X Y MS [N] the finger moves in N steps over MS, each followed by a frame
        touch up ID               the finger lifts
        touch cancel              the compositor cancels the touch sequence
        touch frame               ends a group of touch events
        sleep MS                  wait, still answering the compositor
        sync                      round trip to the compositor
        echo TEXT                 print TEXT on stdout once everything before has been sent
        # ...                     a comment; blank lines are ignored
        """

    /// Parses one line; nil for a blank line or a comment.
    static func parse(_ text: String, line: Int) throws(CommandError) -> Command? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first, !first.hasPrefix("#") else { return nil }
        var reader = WordReader(words: Array(words.dropFirst()), line: line, text: text)
        let command: Command
        switch first {
        case "pointer": command = try parsePointer(&reader)
        case "touch": command = try parseTouch(&reader)
        case "wheel": command = .wheel(detents: try reader.integer("detents", in: -1000...1000))
        case "sleep": command = .sleep(milliseconds: try reader.integer("milliseconds", in: 0...600_000))
        case "sync": command = .sync
        case "echo": return .echo(words.dropFirst().joined(separator: " "))
        default: throw CommandError(line: line, text: text, reason: "unknown command '\(first)'")
        }
        try reader.finish()
        return command
    }

    private static func parsePointer(_ reader: inout WordReader) throws(CommandError) -> Command {
        switch try reader.word("pointer action (move, down, up, glide)") {
        case "move": return .pointerMove(try reader.point())
        case "down": return .pointerButton(pressed: true)
        case "up": return .pointerButton(pressed: false)
        case "glide":
            let target = try reader.point(), ms = try reader.integer("milliseconds", in: 1...600_000)
            return .pointerGlide(to: target, milliseconds: ms, steps: try reader.steps(default: ms))
        case let other: throw reader.error("unknown pointer action '\(other)'")
        }
    }

    private static func parseTouch(_ reader: inout WordReader) throws(CommandError) -> Command {
        switch try reader.word("touch action (down, move, glide, up, cancel, frame)") {
        case "down": return .touchDown(id: try reader.touchID(), at: try reader.point())
        case "move": return .touchMove(id: try reader.touchID(), to: try reader.point())
        case "glide":
            let id = try reader.touchID(), target = try reader.point()
            let ms = try reader.integer("milliseconds", in: 1...600_000)
            return .touchGlide(id: id, to: target, milliseconds: ms, steps: try reader.steps(default: ms))
        case "up": return .touchUp(id: try reader.touchID())
        case "cancel": return .touchCancel
        case "frame": return .touchFrame
        case let other: throw reader.error("unknown touch action '\(other)'")
        }
    }
}

/// Takes the arguments of one command in order, naming what is missing or wrong.
private struct WordReader {
    var words: [String]
    let line: Int
    let text: String
    var index = 0

    func error(_ reason: String) -> CommandError { CommandError(line: line, text: text, reason: reason) }

    mutating func word(_ what: String) throws(CommandError) -> String {
        guard index < words.count else { throw error("missing \(what)") }
        defer { index += 1 }
        return words[index]
    }

    mutating func number(_ what: String) throws(CommandError) -> Double {
        let w = try word(what)
        guard let n = Double(w), n.isFinite else { throw error("\(what) '\(w)' is not a number") }
        return n
    }

    mutating func integer(_ what: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        let w = try word(what)
        guard let n = Int(w), range.contains(n) else {
            throw error("\(what) '\(w)' is not a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return n
    }

    mutating func point() throws(CommandError) -> GlobalPoint {
        let x = try number("x"), y = try number("y")
        guard x >= 0, y >= 0 else { throw error("coordinates \(x) \(y) lie outside the layout (negative)") }
        return GlobalPoint(x: x, y: y)
    }

    mutating func touchID() throws(CommandError) -> UInt32 { UInt32(try integer("touch id", in: 0...1000)) }

    /// An optional step count; by default one step per 10 ms, at least one.
    mutating func steps(default milliseconds: Int) throws(CommandError) -> Int {
        index < words.count ? try integer("steps", in: 1...10_000) : max(1, milliseconds / 10)
    }

    func finish() throws(CommandError) {
        guard index == words.count else { throw error("unexpected '\(words[index...].joined(separator: " "))'") }
    }
}
