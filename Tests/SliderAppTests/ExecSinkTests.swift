// `--exec` through the binary (issue 5 §3): values reach a script, templates are never given to
// a shell, a slow command is coalesced and still gets the final value, failures are reported once.
import Glibc
import TestCompositor
import Testing

/// A scratch folder with `record.sh DIR SLEEP ARG...`: appends its arguments, tab-separated, as one line to
/// DIR/runs after sleeping SLEEP seconds, and notes in DIR/overlaps if two runs ever overlapped.
final class ExecFixture {
    let directory = makeTemporaryDirectory("exec")
    var script: String { directory + "/record.sh" }

    init() throws {
        try writeFile(script, """
            #!/bin/sh
            dir=$1; pause=$2; shift 2
            mkdir "$dir/lock" 2>/dev/null || echo overlap >> "$dir/overlaps"
            sleep "$pause"
            line=$(printf '%s\t' "$@")
            printf '%s\n' "$line" >> "$dir/runs"
            rmdir "$dir/lock" 2>/dev/null
            exit 0

            """, mode: 0o755)
    }

    deinit {
        rmdir(directory + "/lock")
        removeDirectory(directory)
    }

    /// `--exec record.sh DIR SLEEP` followed by `arguments`.
    func execArguments(sleep: Double, _ arguments: [String]) -> [String] {
        ["--exec", script, directory, String(sleep)] + arguments
    }

    /// Each run's arguments.
    var runs: [[String]] {
        let text = String(decoding: readFile(directory + "/runs"), as: UTF8.self)
        return text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    var overlapped: Bool { access(directory + "/overlaps", F_OK) == 0 }

    func exists(_ name: String) -> Bool { access(directory + "/" + name, F_OK) == 0 }
}

@Suite struct ExecSinkTests {
    /// `{value}`, `{percent}` and `{phase}` are filled in; the runs follow the glide to its end.
    @Test func valuesReachTheCommand() async throws {
        let fixture = try ExecFixture()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(
                ["--min", "0", "--max", "200", "--value", "20"] + fixture.execArguments(sleep: 0, ["v={value}", "p={percent}", "{phase}"]))
            try await run.wait(for: "the initial value to run") { fixture.runs.first == ["v=20.00", "p=10.00", "idle"] }
            run.send("150\n")
            try await run.wait(for: "the final value to run") { fixture.runs.last == ["v=150.00", "p=75.00", "idle"] }
            let values = fixture.runs.map { Double($0[0].dropFirst(2)) ?? .nan }
            #expect(isAscending(values, strictly: true), "\(fixture.runs)")
            #expect(!fixture.overlapped, "two runs at once")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }

    /// Shell syntax in the template is passed on as text: nothing is executed.
    @Test func shellMetacharactersRunNothing() async throws {
        let fixture = try ExecFixture()
        let dir = fixture.directory
        let templates = ["{value}; touch \(dir)/semicolon", "$(touch \(dir)/substitution)", "`touch \(dir)/backticks`",
                         "{percent} && touch \(dir)/and | tee \(dir)/pipe > \(dir)/redirect", "*", "'{phase}\""]
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "42"] + fixture.execArguments(sleep: 0, templates))
            try await run.wait(for: "the command to run") { !fixture.runs.isEmpty }
            #expect(fixture.runs.first == [
                "42.00; touch \(dir)/semicolon", "$(touch \(dir)/substitution)", "`touch \(dir)/backticks`",
                "42.00 && touch \(dir)/and | tee \(dir)/pipe > \(dir)/redirect", "*", "'idle\"",
            ])
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            for name in ["semicolon", "substitution", "backticks", "and", "pipe", "redirect"] {
                #expect(!fixture.exists(name), "\(name) was created: a shell ran the template")
            }
        }
    }

    /// A command slower than the frames: at most one run at a time, far fewer runs than values,
    /// and the final value always runs last.
    @Test func slowCommandIsCoalescedAndGetsTheFinalValue() async throws {
        let fixture = try ExecFixture()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(
                ["--value", "0", "--jump-duration", "1", "--precision", "3"] + fixture.execArguments(sleep: 0.3, ["{value}"]))
            try await run.wait(for: "the initial value to run") { fixture.runs.count == 1 }
            run.send("90\n")
            let lines = try await run.waitForLastLine("90.000")
            try await run.wait(for: "90 to run") { fixture.runs.last == ["90.000"] }
            let runs = fixture.runs.map { $0[0] }
            #expect(runs.count <= lines.count / 2, "not coalesced: \(runs.count) runs for \(lines.count) values")
            #expect(Set(runs).isSubset(of: Set(lines)), "a run with a value never emitted: \(runs)")
            #expect(isAscending(numbers(runs), strictly: true), "\(runs)")
            #expect(!fixture.overlapped, "two runs at once")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(fixture.runs.count == runs.count, "ran again at exit with a value already run")
            #expect(run.stderrText == "")
        }
    }

    /// SIGTERM mid-glide with the command busy: wlslider waits for it, then runs the target, then exits 0.
    @Test func signalRunsTheTargetBeforeExiting() async throws {
        let fixture = try ExecFixture()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(
                ["--value", "10", "--jump-duration", "30"] + fixture.execArguments(sleep: 0.3, ["{value}"]))
            run.send("80\n")
            try await run.waitForLines("the glide to start") { $0.count >= 3 }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(fixture.runs.last == ["80.00"], "\(fixture.runs)")
            #expect(!fixture.overlapped)
            #expect(run.stderrText == "")
        }
    }

    /// A command that fails, or cannot start, is reported once however many values it gets.
    @Test(arguments: [
        (["/bin/false"], "wlslider: exec hook: \"/bin/false\" exited with status 1"),
        (["/nonexistent/wlslider-test-command", "{value}"], "wlslider: exec hook: "),
    ])
    func failingCommandIsReportedOnce(command: [String], warning: String) async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "0", "--exec"] + command + ["--precision", "1"])
            run.send("100\n")
            try await run.waitForLastLine("100.0")
            run.send("50\n")
            try await run.waitForLastLine("50.0")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0, "a failing hook is not a reason to fail")
            #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
            #expect(run.stderrLines.first?.hasPrefix(warning) == true, "\(run.stderrLines)")
            #expect(run.stderrLines.first?.contains(command[0]) == true, "\(run.stderrLines)")
        }
    }
}
