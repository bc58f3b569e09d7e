// The wlslider command as a user meets it: --help, bad arguments, no compositor, a compositor
// that lacks what wlslider needs, and a compositor that goes away. Each runs the real binary.
import Glibc
import TestCompositor
import Testing

@Suite struct HelpTests {
    /// Every option issues 3 ("The wlslider command"), 5 and 11 name, with the defaults they give.
    static let documentedOptions: [(name: String, defaultValue: String?)] = [
        ("--min", "0"), ("--max", "100"), ("--value", nil), ("--step", nil), ("--orientation", nil),
        ("--size", nil), ("--track", "capsule"), ("--edge", nil), ("--thumb-scale", "2"),
        ("--thumb-duration", "0.3"), ("--jump-duration", "0.25"), ("--drag-duration", "0.03"),
        ("--curve", "ease-in"), ("--glide", "curve"), ("--scrub-speeds", "1,0.5,0.25,0.1"),
        ("--scrub-offsets", "0,50,100,150"), ("--track-color", nil), ("--fill-color", nil),
        ("--thumb-color", nil), ("--background-color", nil), ("--format", "plain"), ("--precision", "2"),
        // issue 5
        ("--exit-on-eof", nil), ("--osc", nil), ("--osc-timetags", nil), ("--exec", nil),
        ("--audio-out", nil), ("--rate", "48000"), ("--scale-output", nil), ("--output-curve", "linear"),
        // issue 11 (--jack-name and --midi-channel say their defaults in their sentence)
        ("--jack", nil), ("--jack-name", nil), ("--jack-connect", nil), ("--midi-cc", nil), ("--midi-channel", nil),
        ("--midi-14bit", nil), ("--osc-listen", nil), ("--settle", "0.3"),
    ]

    /// The choices each enumerated option must list.
    static let documentedChoices: [String: [String]] = [
        "--orientation": ["horizontal", "vertical"], "--track": ["capsule", "wedge"],
        "--edge": ["left", "right", "top", "bottom"], "--curve": ["ease-in", "ease-out", "ease-in-out", "linear"],
        "--glide": ["curve", "spring"], "--format": ["plain", "json"], "--output-curve": ["linear", "db"],
    ]

    @Test func helpListsEveryOptionWithFullSentences() async throws {
        let run = try WlsliderProcess(["--help"], environment: environmentWithoutCompositor().environment)
        #expect(try await run.waitForExit() == 0)
        #expect(run.stderrText == "")
        let entries = HelpEntry.parse(run.stdoutText)
        for (name, defaultValue) in Self.documentedOptions {
            guard let entry = entries[name] else {
                Issue.record("--help does not list \(name)\n\(run.stdoutText)")
                continue
            }
            if let defaultValue {
                #expect(entry.defaultValue.map(Self.normalised) == Self.normalised(defaultValue),
                        "\(name): default \(entry.defaultValue ?? "none") in --help, issue 3 says \(defaultValue)")
            }
            if let choices = Self.documentedChoices[name] {
                #expect(entry.choices == choices, "\(name) lists \(entry.choices)")
            }
        }
        for entry in entries.values {
            #expect(entry.sentence.first?.isUppercase == true && entry.sentence.hasSuffix("."),
                    "\(entry.name): help is not a full sentence: \"\(entry.sentence)\"")
            #expect(entry.sentence.count >= 12, "\(entry.name): help too short: \"\(entry.sentence)\"")
        }
        // The overview says what the exit codes are.
        #expect(run.stdoutText.contains("0 when closed"))
        #expect(run.stdoutText.contains("64 for a usage error"))
    }

    /// "1.0" and "1", "48000" and "48000.0" are the same default.
    static func normalised(_ text: String) -> String {
        text.split(separator: ",").map { part in
            Double(part).map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? String(part)
        }.joined(separator: ",")
    }
}

/// One option in argument-parser's --help output.
struct HelpEntry {
    let name: String
    /// The help text without the trailing "(default: …)" / "(values: …)" notes.
    let sentence: String
    let defaultValue: String?
    let choices: [String]

    /// Entries by long name. argument-parser starts each entry at column 2 ("  --name <value>" or
    /// "  -h, --help") and puts the help at column 26, on the same line when the syntax fits,
    /// continuing on lines indented to that column.
    static func parse(_ help: String) -> [String: HelpEntry] {
        guard let start = help.range(of: "OPTIONS:\n") else { return [:] }
        let helpColumn = 26
        var blocks: [(name: String, text: String)] = []
        for line in help[start.upperBound...].split(separator: "\n") {
            let syntax = line.prefix(helpColumn), text = line.dropFirst(helpColumn)
            if syntax.hasPrefix("  -") {
                let words = syntax.split(separator: " ")
                let name = words.first { $0.hasPrefix("--") }.map { $0.trimming(",") } ?? String(words[0])
                // A syntax too long for the column leaves the whole line to it.
                let sameLine = syntax.hasSuffix(" ") || syntax.count < helpColumn
                blocks.append((name, sameLine ? String(text) : ""))
            } else if syntax.allSatisfy({ $0 == " " }), !blocks.isEmpty {
                blocks[blocks.count - 1].text += (blocks[blocks.count - 1].text.isEmpty ? "" : " ") + text
            }
        }
        var entries: [String: HelpEntry] = [:]
        for block in blocks { entries[block.name] = HelpEntry(name: block.name, text: block.text) }
        return entries
    }

    init(name: String, text: String) {
        self.name = name
        var sentence = text
        var defaultValue: String?
        var choices: [String] = []
        // Trailing notes: "(default: 2)" in the option's own help (wlslider states its defaults
        // itself), then "(values: a, b)" added by argument-parser for enumerated options.
        while sentence.hasSuffix(")"), let open = sentence.range(of: " (", options: .backwards) {
            let note = sentence[open.upperBound..<sentence.index(before: sentence.endIndex)]
            var isNote = false
            for part in note.split(separator: ";").map({ $0.trimming(" ") }) {
                if part.hasPrefix("default: ") { defaultValue = String(part.dropFirst("default: ".count)); isNote = true }
                if part.hasPrefix("values: ") {
                    choices = part.dropFirst("values: ".count).split(separator: ",").map { $0.trimming(" ") }
                    isNote = true
                }
            }
            guard isNote else { break }
            sentence = String(sentence[..<open.lowerBound])
        }
        self.sentence = sentence
        self.defaultValue = defaultValue
        self.choices = choices
    }
}

extension StringProtocol {
    func trimming(_ set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

@Suite struct UsageErrorTests {
    /// Bad command lines, with what the one error line must mention: the option and the text given.
    static let cases: [(arguments: [String], mentions: [String])] = [
        (["--min", "nan"], ["--min", "nan"]),
        (["--max", "0", "--min", "5"], ["--max", "--min", "0", "5"]),
        (["--value", "200"], ["--value", "200"]),
        (["--size", "0x10"], ["--size", "0x10"]),
        (["--size", "abc"], ["--size", "abc"]),
        (["--track", "square"], ["--track", "square", "capsule", "wedge"]),
        (["--edge", "middle"], ["--edge", "middle", "left"]),
        (["--thumb-scale", "0.5"], ["--thumb-scale", "0.5"]),
        (["--scrub-speeds", "1,2"], ["--scrub-speeds", "--scrub-offsets"]),
        (["--precision", "40"], ["--precision", "40"]),
        (["--osc", "nohost"], ["--osc", "nohost"]),
        (["--rate", "5"], ["--rate", "5"]),
        (["--track-color", "red"], ["--track-color", "red"]),
        (["--no-such-option"], ["--no-such-option"]),
        (["--edge", "left", "--orientation", "horizontal"], ["--edge", "left", "--orientation", "horizontal"]),
        (["--osc-timetags"], ["--osc-timetags", "--osc"]),
        (["--jump-duration", "-1"], ["--jump-duration", "-1", "between 0 and 60 seconds"]),
        (["--min", "-5", "--max", "-10"], ["--max -10", "--min -5"]),
        (["--size", "320x0"], ["--size", "320x0", "e.g. 320x48"]),
        (["--scale-output", "1:1"], ["--scale-output", "1:1"]),
        (["--audio-out", ""], ["--audio-out"]),
        (["--value"], ["--value"]),
        // Numbers at the ends of Double: spans and lists that overflow, sizes no buffer can hold.
        (["--min", "-1e308", "--max", "1e308"], ["--min -1e+308", "--max 1e+308", "too wide"]),
        (["--scale-output", "-1e308:1e308"], ["--scale-output", "-1e308:1e308", "too wide"]),
        (["--scrub-speeds", "1e308,1,1,1"], ["--scrub-speeds 1e+308,1,1,1", "--scrub-offsets"]),
        (["--step", "1e999"], ["--step", "inf"]),
        (["--size", "16384x16384"], ["--size 16384x16384", "pixels"]),
        // An OSC address whose packets no UDP datagram holds (every send would fail): refused
        // without quoting its 70 000 bytes.
        (["--osc", "127.0.0.1:9/" + String(repeating: "a", count: 70_000)], ["--osc", "70001 bytes", "UDP datagram"]),
        (["--osc", "127.0.0.1:9/" + String(repeating: "a", count: 40_000), "--osc-timetags"], ["--osc", "40001 bytes", "bundles"]),
    ]

    /// One `Error:` line naming the option and the bad text, then only argument-parser's usage
    /// hint; nothing on stdout; status 64; and no attempt to reach a compositor.
    @Test(arguments: cases.indices)
    func badArgumentsGiveOneErrorAndStatus64(index: Int) async throws {
        let (arguments, mentions) = Self.cases[index]
        let (environment, directory) = environmentWithoutCompositor()
        defer { removeDirectory(directory) }
        let run = try WlsliderProcess(arguments, environment: environment)
        #expect(try await run.waitForExit() == 64, "\(run.summary)")
        #expect(run.stdoutText == "")
        let lines = run.stderrLines
        let errors = lines.filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && lines.first == errors.first, "\(arguments): \(lines)")
        for fragment in mentions {
            #expect(errors.first?.contains(fragment) == true, "\(arguments): error does not mention \(fragment): \(errors)")
        }
        let others = lines.dropFirst().filter { !($0.hasPrefix("Usage: ") || $0.hasPrefix("  See 'wlslider --help'") || $0.hasPrefix("Help: ")) }
        #expect(others.isEmpty, "\(arguments): more than one message: \(lines)")
        #expect(!lines.contains { $0.hasPrefix("wlslider: ") }, "\(arguments): got past the arguments: \(lines)")
    }
}

@Suite struct CompositorFailureTests {
    /// No compositor at all: one line naming the socket it tried and why, status 1, nothing on stdout.
    @Test func noCompositorIsOneLineAndStatus1() async throws {
        let (environment, directory) = environmentWithoutCompositor()
        defer { removeDirectory(directory) }
        let run = try WlsliderProcess(["--value", "30"], environment: environment)
        #expect(try await run.waitForExit() == 1)
        #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
        let line = run.stderrLines.first ?? ""
        #expect(line.hasPrefix("wlslider: "))
        #expect(line.contains("wayland-nothing-here"), "\(line)")
        #expect(line.contains("No such file or directory"), "\(line)")
        #expect(run.stdoutText == "")
    }

    /// A compositor without a global wlslider cannot work without: one line naming it, status 1.
    @Test(arguments: [Global.xdgWmBase, .shm, .compositor])
    func missingRequiredGlobalIsNamed(global: Global) async throws {
        var configuration = Configuration()
        configuration.globals[global] = nil
        try await withTestCompositor(configuration) { compositor in
            let run = try WlsliderProcess([], environment: compositor.environment)
            #expect(try await run.waitForExit() == 1)
            let needed = global == .compositor ? 4 : 1
            #expect(run.stderrLines == ["wlslider: \(global.interfaceName): need version \(needed), compositor offers none"], "\(run.summary)")
            #expect(compositor.state.surfaces.isEmpty)
        }
    }

    /// wl_compositor 3 lacks `damage_buffer`: the message names the interface and both versions.
    @Test func tooOldCompositorVersionIsNamedWithVersions() async throws {
        var configuration = Configuration()
        configuration.globals[.compositor] = 3
        try await withTestCompositor(configuration) { compositor in
            let run = try WlsliderProcess([], environment: compositor.environment)
            #expect(try await run.waitForExit() == 1)
            #expect(run.stderrLines == ["wlslider: wl_compositor: need version 4, compositor offers 3"], "\(run.summary)")
        }
    }

    /// The compositor goes away mid-glide: one line saying the connection was lost, status 1, and
    /// the glide's target is still the last value on stdout.
    @Test func compositorGoneIsOneLineAndStatus1WithTheLastValue() async throws {
        let compositor = try TestCompositor(StreamFixture.configuration())
        let run = try WlsliderProcess(["--jump-duration", "30"], environment: compositor.environment)
        let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
        _ = try await compositor.waitForCommit(on: surface, after: 0, timeout: patience) { $0.buffer != nil }
        run.send("70\n")
        try await run.waitForLines("the glide to start") { $0.count >= 2 }
        let leftovers = compositor.stop()
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try await run.waitForExit() == 1)
        #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
        #expect(run.stderrLines.first?.hasPrefix("wlslider: lost the connection to the compositor") == true, "\(run.stderrLines)")
        #expect(run.stdoutLines.last == "70.00", "\(run.stdoutLines)")
    }
}
