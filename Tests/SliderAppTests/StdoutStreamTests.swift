// The default sink as a reader of wlslider's stdout sees it: the initial value, glides as lines,
// plain and JSON, precision and output mapping, and how the stream ends.
import Foundation
import Glibc
import TestCompositor
import Testing

@Suite struct StdoutStreamTests {
    /// The initial value is on stdout before the compositor has even configured the window, and
    /// the first frames do not print it again.
    @Test func initialValueIsPrintedOnceAtStart() async throws {
        var configuration = StreamFixture.configuration()
        configuration.configureOnInitialCommit = false
        try await withTestCompositor(configuration) { compositor in
            let run = try WlsliderProcess(["--value", "25"], environment: compositor.environment)
            let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            try await run.waitForLines("the initial value") { !$0.isEmpty }
            #expect(try compositor.surface(surface).commits.allSatisfy { $0.buffer == nil }, "drew before the configure")
            let serial = try compositor.configure(surface, size: Size(width: 0, height: 0))
            try await compositor.waitForAck(of: serial, on: surface, timeout: patience)
            _ = try await compositor.waitForCommit(on: surface, after: 0, timeout: patience) { $0.buffer != nil }
            // Five more frames' worth of time: nothing animates, so nothing more is printed.
            let shown = compositor.state.time
            try await compositor.waitUntil("five frame ticks", timeout: patience) { $0.time >= shown + 5 * 16 }
            #expect(run.stdoutLines == ["25.00"])
            #expect(run.stderrText == "")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines == ["25.00"], "the final value repeated the initial one")
        }
    }

    /// A value from stdin glides: the lines climb, one per frame, and end on the target.
    @Test func plainLinesFollowAGlide() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10"])
            try await run.waitForLines("the initial value") { $0 == ["10.00"] }
            run.send("60\n")
            let lines = try await run.waitForLastLine("60.00")
            let values = numbers(lines)
            #expect(values.first == 10 && values.last == 60)
            #expect(isAscending(values, strictly: true), "\(lines)")
            // 0.25 s at 16 ms frames: a glide, not a step (the last frames of ease-in differ by less than 0.01).
            #expect(lines.count >= 6, "\(lines)")
            #expect(lines.allSatisfy { hasDecimals($0, 2) }, "\(lines)")
            #expect(run.stderrText == "")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// `--format json`: one object per line with the time in ms since start, the value and the phase.
    @Test func jsonLinesCarryTimeValueAndPhase() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--format", "json", "--value", "10", "--precision", "1"])
            try await run.waitForLines("the initial value") { !$0.isEmpty }
            run.send("60\n")
            let lines = try await run.waitForLines("the glide to end") { $0.last?.contains("\"value\":60.0,") == true }
            var times: [Int] = [], values: [Double] = []
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object.map { Set($0.keys) } == ["t", "value", "phase"], "\(line)")
                #expect(object?["phase"] as? String == "idle", "stdin sets carry no gesture phase: \(line)")
                times.append((object?["t"] as? NSNumber)?.intValue ?? -1)
                values.append((object?["value"] as? NSNumber)?.doubleValue ?? .nan)
                #expect(line.hasPrefix("{\"t\":") && line.contains(".") , "\(line)")
            }
            #expect(values.first == 10 && values.last == 60, "\(lines)")
            #expect(isAscending(values, strictly: true), "\(lines)")
            #expect(times.allSatisfy { $0 >= 0 } && isAscending(times.map(Double.init)), "\(times)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    @Test(arguments: [(0, "10", "60"), (1, "10.0", "60.0"), (4, "10.0000", "60.0000")])
    func precisionSetsTheDecimals(precision: Int, initial: String, final: String) async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--precision", String(precision)])
            try await run.waitForLines("the initial value") { $0 == [initial] }
            run.send("60\n")
            let lines = try await run.waitForLastLine(final)
            #expect(lines.allSatisfy { hasDecimals($0, precision) }, "\(lines)")
            #expect(Set(lines).count == lines.count, "a line repeated: \(lines)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// `--scale-output` and `--output-curve db` map every printed value (issue 5 §5).
    @Test(arguments: [
        (["--value", "25", "--scale-output", "0:1"], "0.25", "50", "0.50"),
        (["--min", "-1", "--max", "1", "--value", "1", "--scale-output", "100:0"], "0.00", "set -1", "100.00"),
        (["--value", "0", "--output-curve", "db"], "-inf", "50", "-30.00"),
        (["--value", "100", "--output-curve", "db", "--scale-output", "-40:6"], "6.00", "25", "-28.50"),
    ])
    func outputMappingAppliesToEveryLine(arguments: [String], initial: String, command: String, final: String) async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(arguments)
            try await run.waitForLines("the initial value") { $0 == [initial] }
            run.send(command + "\n")
            let lines = try await run.waitForLastLine(final)
            let mapped = numbers(Array(lines.dropFirst()))
            let ascending = Double(final)! > (Double(initial) ?? -.infinity)
            #expect(isAscending(ascending ? mapped : mapped.reversed()), "\(lines)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// Negative numbers are values, on the command line (`--min -60`) as on stdin, where a sign
    /// means relative and `set` gives an absolute negative value.
    @Test func negativeNumbersAreValues() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--min", "-60", "--max", "0", "--value", "-45", "--precision", "1"])
            try await run.waitForLines("the initial value") { $0 == ["-45.0"] }
            run.send("-10\n")
            try await run.waitForLastLine("-55.0")
            run.send("set -10\n")
            try await run.waitForLastLine("-10.0")
            #expect(run.stderrText == "")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// JSON has no infinity: the db curve's silence is `null`.
    @Test func jsonSilenceIsNull() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--format", "json", "--output-curve", "db"])
            let lines = try await run.waitForLines("the initial value") { !$0.isEmpty }
            #expect(lines.first?.contains("\"value\":null,") == true, "\(lines)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }
}
