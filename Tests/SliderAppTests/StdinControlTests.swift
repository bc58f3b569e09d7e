// stdin as a user's script drives it (issue 5 §1): commands, bad lines, end of input.
import Glibc
import TestCompositor
import Testing

@Suite struct StdinControlTests {
    /// Each command, one after another, each awaited on stdout before the next.
    @Test func commandsMoveTheValueAndChangeTheRange() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--jump-duration", "0.1"])
            try await run.waitForLines("the initial value") { $0 == ["10.00"] }
            let steps: [(command: String, result: String)] = [
                ("50", "50.00"),            // absolute
                ("+5", "55.00"),            // relative up
                ("-10", "45.00"),           // relative down
                ("min 60", "60.00"),        // the range moves past the value: clamped into it
                ("min -20", "60.00"),       // (value unchanged, nothing printed; checked below)
                ("set -5", "-5.00"),        // a negative absolute target
                ("max 200", "-5.00"),
                ("150", "150.00"),          // beyond the old maximum
                ("step 10", "150.00"),
                ("23", "20.00"),            // snapped to the step
                ("step off", "20.00"),
                ("23", "23.00"),
                ("  +0.5\t", "23.50"),      // spaces and tabs around a command are fine
                ("SET 7", "7.00"),          // keywords are case-insensitive
            ]
            for (command, result) in steps {
                let before = run.stdoutLines.count
                run.send(command + "\n")
                // A command that leaves the value where it is prints nothing; the next one, read
                // after it in order, shows it took effect.
                if run.stdoutLines.last == result { continue }
                let lines = try await run.waitForLastLine(result)
                let glide = numbers(Array(lines[(before - 1)...]))
                #expect(isAscending(glide) || isAscending(glide.reversed()), "\(command): \(glide)")
            }
            #expect(run.stderrText == "", "a valid command was refused: \(run.stderrText)")
            run.send("quit\n")
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.last == "7.00")
            // No value ever went outside the range in force.
            #expect(numbers(run.stdoutLines).allSatisfy { (-20...200).contains($0) })
        }
    }

    /// Bad lines: one warning each on stderr, naming the line; the value does not move.
    @Test func badLinesAreReportedOnceAndChangeNothing() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "40"])
            try await run.waitForLines("the initial value") { $0 == ["40.00"] }
            let overlong = String(repeating: "9", count: 300)
            let bad: [(line: String, quoted: String)] = [
                ("abc", "\"abc\""), ("nan", "\"nan\""), ("inf", "\"inf\""), ("-inf", "\"-inf\""),
                ("1e999", "\"1e999\""), ("0x10", "\"0x10\""), ("50 60", "\"50 60\""), ("min", "\"min\""),
                ("step -1", "\"step -1\""), ("min 500", "\"min 500\""), ("quit now", "\"quit now\""),
                ("set", "\"set\""), ("+", "\"+\""), (overlong, "\"" + String(repeating: "9", count: 40) + "\"…"),
            ]
            for (line, _) in bad { run.send(line + "\n") }
            try await run.wait(for: "\(bad.count) warnings") { run.stderrLines.count >= bad.count }
            let warnings = run.stderrLines
            #expect(warnings.count == bad.count, "\(warnings)")
            for ((line, quoted), warning) in zip(bad, warnings) {
                #expect(warning.hasPrefix("wlslider: stdin: ignored line \(quoted)"), "for \(line.prefix(50)): \(warning)")
                #expect(warning.count < 200, "a warning should be one short line: \(warning)")
            }
            // Nothing moved: a good command afterwards glides from 40, and the process still runs.
            #expect(run.stdoutLines == ["40.00"])
            #expect(run.exitCode == nil)
            run.send("41\n")
            let lines = try await run.waitForLastLine("41.00")
            #expect(numbers(lines).allSatisfy { (40...41).contains($0) }, "\(lines)")
            #expect(run.stderrLines.count == bad.count)
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// A value from stdin never fights a finger: while the slider is held the gesture wins, and
    /// the stdin target applies once the finger lifts (issue 5 §1).
    @Test func stdinWaitsForTheGestureToEnd() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "50"])
            let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
            try await compositor.waitUntil("wlslider to take the touch device", timeout: patience) {
                $0.clients[client]?.requests("wl_seat.get_touch") ?? 0 > 0
            }
            try compositor.touch.down(on: surface, x: 60, y: 24)
            try compositor.touch.frame()
            let held = try await run.waitForLines("the press to move the value") { numbers($0).last.map { $0 < 40 } == true }.count
            // stdin is read in order: once the bad line's warning is out, "90" has been applied.
            run.send("90\nmarker\n")
            try await run.wait(for: "the marker's warning") { run.stderrLines.count == 1 }
            try compositor.touch.motion(x: 80, y: 24)
            try compositor.touch.frame()
            let now = compositor.state.time
            try await compositor.waitUntil("10 more frames", timeout: patience) { $0.time >= now + 160 }
            let whileHeld = numbers(Array(run.stdoutLines.dropFirst(held)))
            #expect(whileHeld.allSatisfy { $0 < 50 }, "the stdin value moved the slider under the finger: \(whileHeld)")
            try compositor.touch.up()
            try compositor.touch.frame()
            let lines = try await run.waitForLastLine("90.00")
            #expect(isAscending(numbers(Array(lines.dropFirst(held + whileHeld.count)))), "\(lines)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrLines.count == 1 && run.stderrLines[0].contains("\"marker\""), "\(run.stderrLines)")
        }
    }

    /// End of stdin is not the end of the slider: it keeps serving the compositor until closed.
    @Test func endOfInputKeepsRunning() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "20"])
            run.send("30\n")
            try await run.waitForLastLine("30.00")
            run.closeStdin()
            try await run.expectStillRunning(for: .milliseconds(300))
            // Its event loop still works: it answers a ping, and a close request ends it cleanly.
            let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
            let serial = try compositor.ping(client)
            try await compositor.waitUntil("a pong", timeout: patience) { $0.clients[client]?.pongs.contains(serial) == true }
            try compositor.close(surface)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.last == "30.00")
            #expect(run.stderrText == "")
        }
    }

    /// `--exit-on-eof`: the end of stdin ends wlslider with 0, after the last command's target is out.
    @Test func exitOnEOFEndsWithTheLastTarget() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "20", "--exit-on-eof", "--jump-duration", "30"])
            run.send("90\n")
            try await run.waitForLines("the glide to start") { $0.count >= 2 }
            run.closeStdin()
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.last == "90.00", "\(run.stdoutLines)")
            #expect(run.stderrText == "")
        }
    }

    /// `quit` mid-glide: exit 0, and the glide's target is the last line.
    @Test func quitEndsWithTheTarget() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "20", "--jump-duration", "30"])
            run.send("80\n")
            try await run.waitForLines("the glide to start") { $0.count >= 2 }
            run.send("quit\n")
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.last == "80.00", "\(run.stdoutLines)")
            #expect(numbers(run.stdoutLines).allSatisfy { (20...80).contains($0) })
        }
    }
}
