// Every command-line option, and stdin, fed extreme values, against the real binary and the test
// compositor: wlslider either refuses the command line (status 64, one `Error:` line naming the
// option) or draws and runs until told to quit (status 0) — never a signal, never a number that
// overflowed on stdout. A fixed seed makes every run the same; a failure names the arguments.
import Glibc
import TestCompositor
import Testing

/// SplitMix64: a small seeded generator, so the fuzz replays exactly.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What each option may be given: the extremes of its kind, a few ordinary values, junk.
enum FuzzValues {
    static let long = String(repeating: "9", count: 10_000)

    static let numbers = [
        "nan", "NaN", "inf", "-inf", "1e308", "-1e308", "+1e308", "1.7976931348623157e308", "0", "-0", "-1", "",
        long, "1e-308", "5e-324", "-5e-324", "0.5", "1", "2", "10", "11", "60", "61", "100", "1e999", "0x10", " 5", "abc",
    ]
    static let integers = ["0", "-1", "1", "17", "18", "99999999999999999999", "", "1e3", "48000", "8000", "192000",
                           "2147483648", "-9223372036854775808", long, "nan"]
    static let lists = [
        "1e308,1,1,1", "0,50,100,150", "1,0.5,0.25,0.1", "", ",", "1,,2", "nan,1,1,1", "-1,1,1,1", "0,1e308,1.7e308,1.79e308",
        "inf", " 1 , 2 ", String(repeating: "1,", count: 5_000) + "1", (0..<5_000).map(String.init).joined(separator: ","),
        "1e-308,5e-324,1,1", long,
    ]
    static let sizes = [
        "0x0", "1x1", "16384x16384", "99999999999999999999x1", "48x320", "100x200", "37x48", "30x48", "1x16384",
        "16384x1", "320x48", "x", "0.5x2", "", "2x2", "16385x48", "5x3", "48x48", "1x2", "16384x2048", "2048x16384",
    ]
    static let colors = ["#", "#GGGGGG", "#FFFFFF", "#ffffff00", "#12345", "", "red", "#FFFFFFFFF", "#000000",
                         "#" + String(repeating: "F", count: 10_000)]
    static let titles = ["", String(repeating: "x", count: 10_000), "ünïcødé ✓ 🎚", "\u{1}\u{7f}\t\r\n\u{1b}[31m",
                         String(repeating: "🎚", count: 3_000), "%s%n{value}"]
    static let oscs = ["127.0.0.1:9/x", "nohost", ":", "127.0.0.1:99999/x", "", "127.0.0.1:9/" + String(repeating: "a", count: 10_000),
                       "127.0.0.1:0/x", "127.0.0.1:9"]
    static let scales = ["0:1", "-1e308:1e308", "1:1", "", ":", "nan:1", "1e308:-1e308", "-8e307:8e307", "0:1e300", "1:0",
                         long + ":1", "-1.7976931348623157e308:0"]
    static let choices: [String: [String]] = [
        "--orientation": ["horizontal", "vertical"], "--track": ["capsule", "wedge"],
        "--edge": ["left", "right", "top", "bottom"], "--curve": ["ease-in", "ease-out", "ease-in-out", "linear"],
        "--glide": ["curve", "spring"], "--format": ["plain", "json"], "--output-curve": ["linear", "db"],
    ]
    static let execs: [[String]] = [["true"], ["true", "{value}", "{percent}%", "{phase}"], ["true"], [""], ["{value}"]]

    /// Values each option accepts, chosen at the extremes where there are any: these runs must
    /// get as far as drawing.
    static func plausible(_ option: String, scratch: String) -> [String] {
        switch option {
        case "--min": ["-1e308", "-1.7976931348623157e308", "0", "-0", "-5e-324", "-100", "1e-308"]
        case "--max": ["1e308", "1.7976931348623157e308", "100", "5e-324", "1e-300", "1000"]
        case "--value": ["0", "-0", "5e-324", "50", "100"]
        case "--step": ["1", "0.5", "5e-324", "1e-300", "100", "33.3"]
        case "--edge-hide-delay", "--thumb-duration", "--jump-duration", "--drag-duration":
            ["0", "-0", "5e-324", "1e-300", "0.01", "0.3", "60"]
        case "--thumb-scale": ["1", "10", "1.0000001", "2", "9.99"]
        case "--precision": ["0", "17", "2"]
        case "--rate": ["1000", "384000", "48000"]
        case "--scrub-speeds": ["1,0.5,0.25,0.1", "10,10,10,10", "5e-324,5e-324,5e-324,5e-324"]
        case "--scrub-offsets": ["0,50,100,150", "0,5e-324,1e-300,1e308", "0,1e-308,1.7e308,1.79e308"]
        case "--size": ["1x1", "48x320", "100x200", "37x48", "30x48", "1x16384", "16384x1", "2x2", "5x3", "48x48", "1x2", "2048x16384"]
        case "--track-color", "--fill-color", "--thumb-color", "--background-color": ["#FFFFFF", "#ffffff00", "#000000", "#12345678"]
        case "--title": titles
        case "--osc": ["127.0.0.1:9/x", "127.0.0.1:9/" + String(repeating: "a", count: 10_000)]
        case "--scale-output": ["0:1", "-8e307:8e307", "0:1e300", "1:0", "-1.7976931348623157e308:0", "5e-324:1e-323"]
        case "--audio-out": ["-", scratch + "/audio.f32"]
        default: choices[option] ?? []
        }
    }

    /// Anything at all for the option's kind: junk, overflowing numbers, empty text, 10 000 characters.
    static func wild(_ option: String, scratch: String) -> [String] {
        switch option {
        case "--min", "--max", "--value", "--step", "--edge-hide-delay", "--thumb-scale", "--thumb-duration",
             "--jump-duration", "--drag-duration": numbers
        case "--precision", "--rate": integers
        case "--scrub-speeds", "--scrub-offsets": lists
        case "--size": sizes
        case "--track-color", "--fill-color", "--thumb-color", "--background-color": colors
        case "--title": titles
        case "--osc": oscs
        case "--scale-output": scales
        case "--audio-out": ["-", scratch + "/audio.f32", ""]
        default: (choices[option] ?? []) + ["", "nope", "LEFT", long]
        }
    }

    /// The arguments after `option`: one value (plausible or, a third of the time, wild), none for
    /// a flag, a command for --exec.
    static func arguments(for option: String, scratch: String, _ random: inout FuzzRandom) -> [String] {
        switch option {
        case "--exec": return execs.randomElement(using: &random)!
        case "--osc-timetags", "--exit-on-eof": return []
        default:
            let values = Int.random(in: 0...2, using: &random) == 0 ? wild(option, scratch: scratch) : plausible(option, scratch: scratch)
            return [values.randomElement(using: &random)!]
        }
    }

    static let options = [
        "--min", "--max", "--value", "--step", "--orientation", "--size", "--track", "--edge", "--edge-hide-delay",
        "--title", "--thumb-scale", "--thumb-duration", "--jump-duration", "--drag-duration", "--curve", "--glide",
        "--scrub-speeds", "--scrub-offsets", "--track-color", "--fill-color", "--thumb-color", "--background-color",
        "--format", "--precision", "--scale-output", "--output-curve", "--osc", "--osc-timetags", "--exec",
        "--audio-out", "--rate", "--exit-on-eof",
    ]
}

/// One wlslider under the fuzz: started, watched until it draws or exits, told to quit.
final class FuzzRun {
    let arguments: [String]
    let options: [String]
    private let environment: [String: String]
    /// The process, once ``start()`` has run.
    private(set) var process: WlsliderProcess!
    private(set) var started = ContinuousClock.now
    /// The stdin bytes to send once it has drawn, before `quit`.
    let input: [[UInt8]]
    /// True once it has drawn and been told what to do.
    private(set) var isFinishing = false
    /// True when `quit` went to a process still running after all its input.
    private(set) var sentQuit = false

    init(options: [String], arguments: [String], input: [[UInt8]] = [], environment: [String: String]) {
        self.options = options
        self.arguments = arguments
        self.input = input
        self.environment = environment
    }

    func start() throws {
        process = try WlsliderProcess(arguments, environment: environment)
        started = ContinuousClock.now
    }

    /// Once the process has drawn: sends its input a line every few milliseconds (so the value
    /// glides between them and frames show it), then `quit`.
    func finish() async throws {
        isFinishing = true
        for chunk in input where process.exitCode == nil {
            process.send(bytes: chunk)
            try await Task.sleep(for: .milliseconds(8))
        }
        guard process.exitCode == nil else { return }
        sentQuit = true
        process.send("quit\n")
    }
}

/// Starts `runs` against `compositor`, `parallel` at a time: each draws then quits, or exits on its own.
func drive(_ runs: [FuzzRun], on compositor: TestCompositor, parallel: Int, timeout: Duration = .seconds(40)) async throws -> [FuzzRun] {
    var pending = runs[...], active: [FuzzRun] = [], done: [FuzzRun] = []
    while !pending.isEmpty || !active.isEmpty {
        while active.count < parallel, let next = pending.popFirst() {
            try next.start()
            active.append(next)
        }
        let state = compositor.state
        for run in active where !run.isFinishing && run.process.exitCode == nil && hasDrawn(run.process.pid, in: state) {
            try await run.finish()
        }
        for run in active where run.process.exitCode != nil || ContinuousClock.now - run.started > timeout {
            if run.process.exitCode == nil { run.process.signal(SIGKILL) }
            _ = try? await run.process.waitForExit(timeout: .seconds(5))
            done.append(run)
        }
        active.removeAll { run in done.contains { $0 === run } }
        try await Task.sleep(for: .milliseconds(5))
    }
    return done
}

/// True once the client with process id `pid` has committed a buffer on its window or layer surface.
func hasDrawn(_ pid: Int32, in state: CompositorState) -> Bool {
    guard let client = state.clients.values.first(where: { $0.pid == pid })?.id else { return false }
    return state.surfaces.values.contains {
        $0.client == client && ($0.role == .toplevel || $0.role == .layer) && $0.lastBufferCommit != nil
    }
}

/// The value lines of a run: every one a finite number (plain) or has a finite value (JSON); the
/// db curve's silence (`-inf`, JSON `null`) is the one exception.
func expectFiniteValues(_ run: FuzzRun, db: Bool, json: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    for line in run.process.stdoutLines {
        if json {
            let ok = !line.contains("nan") && !line.contains("inf") && (db || !line.contains("null"))
            #expect(ok, "\(line.prefix(200)) from \(run.arguments.map { $0.prefix(40) })", sourceLocation: sourceLocation)
        } else {
            let ok = Double(line).map { $0.isFinite } ?? false || (db && line == "-inf")
            #expect(ok, "\"\(line.prefix(200))\" from \(run.arguments.map { $0.prefix(40) })", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Option and stdin fuzz", .serialized)
struct OptionFuzzTests {
    init() { signal(SIGPIPE, SIG_IGN) }  // a wlslider that died must fail a write, not kill the tests

    @Test("random options with extreme values: status 0 after drawing and quit, or 64 with one Error line naming an option")
    func options() async throws {
        var random = FuzzRandom(seed: 0x0F7_10_F022)
        let scratch = makeTemporaryDirectory("option-fuzz")
        defer { removeDirectory(scratch) }
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            var runs: [FuzzRun] = []
            // First the sizes that used to trap, both ways round, then random combinations.
            for size in FuzzValues.sizes where !["", "x", "0.5x2"].contains(size) {
                for orientation in ["horizontal", "vertical"] {
                    runs.append(FuzzRun(options: ["--size"], arguments: ["--size", size, "--orientation", orientation],
                                        environment: compositor.environment))
                }
            }
            for _ in 0..<72 {
                let chosen = Array(FuzzValues.options.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
                var arguments: [String] = []
                for option in chosen { arguments += [option] + FuzzValues.arguments(for: option, scratch: scratch, &random) }
                runs.append(FuzzRun(options: chosen, arguments: arguments, environment: compositor.environment))
            }
            for run in try await drive(runs, on: compositor, parallel: 4) { check(run) }
        }
    }

    func check(_ run: FuzzRun) {
        let status = run.process.exitCode
        let shown = run.arguments.map { $0.count > 40 ? $0.prefix(40) + "…(\($0.count))" : $0[...] }
        #expect(status == 0 || status == 64, "status \(status.map(String.init) ?? "running") for \(shown)\n\(run.process.stderrText.prefix(600))")
        if status == 64 {
            let errors = run.process.stderrLines.filter { $0.hasPrefix("Error: ") }
            #expect(errors.count == 1, "\(shown): \(run.process.stderrLines.map { $0.prefix(200) })")
            #expect(errors.first.map { error in run.options.contains { error.contains($0) } } == true,
                    "\(shown): the error names none of the options: \(errors.map { $0.prefix(300) })")
            #expect(run.process.stdoutText.isEmpty)
        } else if status == 0 {
            #expect(run.sentQuit, "\(shown) exited 0 before it drew anything")
            if !run.arguments.contains("-") {  // --audio-out - puts samples on stdout, not lines
                expectFiniteValues(run, db: run.arguments.contains("db"), json: run.arguments.contains("json"))
            }
        }
    }

    /// Lines no command should be: random bytes, NUL, CR, invalid UTF-8, a megabyte, numbers at the
    /// ends of Double, `min`/`max`/`step` with them.
    static func junkLine(_ random: inout FuzzRandom) -> [UInt8] {
        let numbers = ["1e308", "-1e308", "+1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "5e-324",
                       "-5e-324", "1e-308", "0", "-0", "1e999", "nan", "inf"]
        func number() -> String { numbers.randomElement(using: &random)! }
        switch Int.random(in: 0...9, using: &random) {
        case 0: return (0..<Int.random(in: 1...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }.filter { $0 != 10 }
        case 1: return Array("50\0\0".utf8)
        case 2: return Array("\(number())\r".utf8)
        case 3: return [0xFF, 0xFE, 0x35, 0x30, 0xC3, 0x28, 0xE2, 0x82]
        case 4: return [UInt8](repeating: UInt8(ascii: "7"), count: 1 << 20)
        case 5: return Array("\(["min", "max", "step", "set"].randomElement(using: &random)!) \(number())".utf8)
        case 6: return Array(number().utf8)
        case 7: return Array("+\(number().drop { $0 == "+" || $0 == "-" })".utf8)
        case 8: return Array("\(["min", "max"].randomElement(using: &random)!) \(number())\r".utf8)
        default: return Array(String(Double.random(in: -1e3...1e3, using: &random)).utf8)
        }
    }

    @Test("stdin junk and extreme numbers: wlslider keeps running, prints only finite numbers, exits 0 on quit")
    func stdin() async throws {
        var random = FuzzRandom(seed: 0x57D1_F022)
        let setups: [[String]] = [
            [], ["--min", "-1e308", "--max", "7e307"], ["--step", "0.5", "--glide", "spring"], ["--scale-output", "0:1e300"],
            ["--min", "0", "--max", "1e-300", "--precision", "17"], ["--format", "json", "--output-curve", "db"],
        ]
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            var runs: [FuzzRun] = []
            for setup in setups {
                let lines = (0..<40).map { _ in Self.junkLine(&random) + [10] }
                runs.append(FuzzRun(options: [], arguments: setup + ["--jump-duration", "0.05"], input: lines,
                                        environment: compositor.environment))
            }
            let done = try await drive(runs, on: compositor, parallel: 3)
            for run in done {
                #expect(run.sentQuit && run.process.exitCode == 0, "\(run.arguments): \(run.process.summary.prefix(2000))")
                expectFiniteValues(run, db: run.arguments.contains("db"), json: run.arguments.contains("json"))
                #expect(run.process.stderrLines.allSatisfy { $0.hasPrefix("wlslider: stdin: ignored line") },
                        "\(run.arguments): \(run.process.stderrLines.filter { !$0.hasPrefix("wlslider: stdin: ignored line") }.map { $0.prefix(200) })")
            }
        }
    }
}
