// How wlslider ends (issue 5 §6 "Nothing lost"): signals flush the glide's target first, the
// window's close is a clean exit, and a reader that goes away ends it quietly.
import Glibc
import TestCompositor
import Testing

@Suite struct ShutdownTests {
    /// SIGTERM or SIGINT in the middle of a 30 s glide: status 0, nothing on stderr, and the
    /// target, not wherever the glide had got to, is the last line.
    @Test(arguments: [SIGTERM, SIGINT])
    func signalFlushesTheTargetAndExits0(signal: Int32) async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--jump-duration", "30"])
            run.send("70\n")
            let moving = try await run.waitForLines("the glide to start") { $0.count >= 3 }
            #expect(numbers(moving).last! < 70)
            run.signal(signal)
            #expect(try await run.waitForExit() == 0)
            let lines = run.stdoutLines
            #expect(lines.last == "70.00", "\(lines.suffix(5))")
            #expect(lines.filter { $0 == "70.00" }.count == 1)
            #expect(isAscending(numbers(lines)), "\(lines)")
            #expect(run.stderrText == "")
        }
    }

    /// The compositor asks the window to close: status 0 and the value stream complete.
    @Test func closeRequestExits0() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--jump-duration", "30"])
            run.send("35\n")
            try await run.waitForLines("the glide to start") { $0.count >= 2 }
            try compositor.close(surface)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.last == "35.00")
            #expect(run.stderrText == "")
        }
    }

    /// The reader of stdout goes away (`wlslider | head -1`) while nothing moves: poll reports the
    /// pipe's error at once and, with no other sink, wlslider ends with status 0 and says nothing,
    /// without waiting for a value to write.
    @Test func closedStdoutEndsQuietly() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10"])
            try await run.waitForLines("the initial value") { $0 == ["10.00"] }
            run.closeStdout()
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "", "EPIPE should end wlslider quietly")
        }
    }

    /// With another sink active (OSC), a closed stdout is no reason to stop: the values still reach
    /// the OSC receiver, and wlslider runs until told to stop.
    @Test func closedStdoutWithAnotherSinkKeepsRunning() async throws {
        let receiver = try await OSCDump()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--osc", "127.0.0.1:\(receiver.port)/v"])
            try await run.waitForLines("the initial value") { $0 == ["10.00"] }
            run.closeStdout()
            run.send("90\n")
            try await receiver.wait(for: "90 over OSC") { _ in receiver.floats(at: "/v").last == 90 }
            try await run.expectStillRunning(for: .milliseconds(200))
            run.send("20\n")
            try await receiver.wait(for: "20 over OSC") { _ in receiver.floats(at: "/v").last == 20 }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }
}
