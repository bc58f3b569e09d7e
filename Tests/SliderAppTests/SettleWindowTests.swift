// The settle window with a finger on the slider (issue 11): outside targets that keep coming
// during a drag, from stdin and OSC at once, a touch cancel instead of a lift, two fingers, and
// `--settle 0`. The finger takes the value from 10 to above 60 and keeps it above 50 in each of
// these; every outside target is below 50, so a line under 50 after the finger's glide came up
// and before the window's end is a target that did not wait.
import Foundation
import Glibc
import TestCompositor
import Testing

@Suite struct SettleWindowTests {
    /// An OSC peer sends a different value every millisecond of a drag of a second or more: none applies
    /// while the finger holds the slider or in the settle window after the lift; then the newest
    /// applies, once, in one glide (no stop at any of the values that queued up), quietly.
    @Test func aPeerSendingEveryMillisecondDuringADragWaitsForTheWindow() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, port) = try await startListening(["--value", "10", "--format", "json"], compositor: compositor)
            let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            try await touchReady(compositor, run)
            try compositor.touch.down(on: surface, x: 250, y: 24)
            try compositor.touch.frame()
            for k in 0..<1000 {
                sendDatagram(oscMessage("/wlslider/value", "f", bigEndian(Float(k % 46).bitPattern)), to: port)
                if k % 50 == 0 {
                    try compositor.touch.motion(x: k % 100 == 0 ? 250 : 270, y: 24)
                    try compositor.touch.frame()
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            sendDatagram(oscMessage("/wlslider/value", "f", bigEndian(Float(42.5).bitPattern)), to: port)
            try await Task.sleep(for: .milliseconds(50))
            try compositor.touch.up()
            try compositor.touch.frame()
            let lines = try await run.waitForLines("42.5 after the window") { $0.last.flatMap(value) == 42.5 }
            try await run.expectStillRunning(for: .milliseconds(300))
            #expect(run.stdoutLines.last.flatMap(value) == 42.5, "\(run.stdoutLines.suffix(3))")
            try checkNothingAppliedEarly(lines, settle: 0.3, target: 42.5)
            #expect(run.stdoutLines.filter { value($0) == 42.5 }.count == 1)
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }

    /// Stdin and OSC both send during a drag: the newest of the two wins after the window, and
    /// `+5` lines from stdin add up on the target that waits (33 from OSC, +5, +5: 43). In a
    /// second drag, OSC's value comes last and wins over stdin's.
    @Test func theNewestOfStdinAndOSCWinsAndRelativeValuesAddUp() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, port) = try await startListening(["--value", "10", "--format", "json"], compositor: compositor)
            let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            try await touchReady(compositor, run)
            func osc(_ v: Float) { sendDatagram(oscMessage("/wlslider/value", "f", bigEndian(v.bitPattern)), to: port) }
            for (sends, target) in [([{ osc(30) }, { run.send("20\n") }, { osc(33) }, { run.send("+5\n") }, { run.send("+5\n") }], 43.0),
                                    ([{ run.send("20\n") }, { osc(27) }, { run.send("+1\n") }, { run.send("25\n") }, { osc(31.5) }], 31.5)] {
                let before = run.stdoutLines.count
                try compositor.touch.down(on: surface, x: 250, y: 24)
                try compositor.touch.frame()
                for send in sends {
                    send()
                    try await Task.sleep(for: .milliseconds(60))
                }
                try compositor.touch.up()
                try compositor.touch.frame()
                let lines = try await run.waitForLines("\(target) after the window") { $0.last.flatMap(value) == target }
                try checkNothingAppliedEarly(Array(lines[before...]), settle: 0.3, target: target)
                try await Task.sleep(for: .milliseconds(400))
            }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }

    /// wl_touch.cancel instead of a lift (the compositor took the touch for a gesture of its
    /// own): the value goes back where it was before the touch, the window runs from the cancel,
    /// then the target that waited applies.
    @Test func aCancelRunsTheWindowToo() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--format", "json"])
            try await touchReady(compositor, run)
            try compositor.touch.down(on: surface, x: 250, y: 24)
            try compositor.touch.frame()
            try await run.wait(for: "the finger's glide") { run.stdoutLines.last.flatMap(value).map { $0 > 60 } == true }
            run.send("42.5\n")
            try await Task.sleep(for: .milliseconds(100))
            try compositor.touch.cancel()
            let lines = try await run.waitForLines("42.5 after the window") { $0.last.flatMap(value) == 42.5 }
            let cancelled = try #require(lines.firstIndex { $0.contains("\"cancelled\"") }, "\(lines.suffix(5))")
            let cancelTime = try #require(time(lines[cancelled]))
            let after = lines[cancelled...].compactMap { line in time(line).flatMap { t in value(line).map { (t, $0) } } }
            // Back toward 10 first; then, once the window has run, up to the target.
            let lowest = try #require(after.indices.min { after[$0].1 < after[$1].1 })
            #expect(after[lowest].1 < 15, "the cancel did not take the value back: \(after.map(\.1))")
            let rising = try #require(after[lowest...].first { $0.1 > after[lowest].1 + 0.5 })
            #expect(rising.0 - cancelTime >= 280, "applied \(rising.0 - cancelTime) ms after the cancel")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }

    /// A second finger goes down while the first holds the slider; the first lifts, then the
    /// second: the target waits until the window after the last lift has run, and ADDRESS/touched
    /// says 1 until then.
    @Test func withTwoFingersTheWindowStartsAtTheLastLift() async throws {
        let dump = try await OSCDump()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--format", "json", "--osc", "127.0.0.1:\(dump.port)/x"])
            try await touchReady(compositor, run)
            try compositor.touch.down(id: 0, on: surface, x: 250, y: 24)
            try compositor.touch.frame()
            try await run.wait(for: "the finger's glide") { run.stdoutLines.last.flatMap(value).map { $0 > 60 } == true }
            let up = run.stdoutLines.count
            var applied: Bool { run.stdoutLines.dropFirst(up).contains { value($0).map { $0 < 50 } == true } }
            try compositor.touch.down(id: 1, on: surface, x: 100, y: 24)
            try compositor.touch.frame()
            run.send("42.5\n")
            try await Task.sleep(for: .milliseconds(100))
            try compositor.touch.up(id: 0)
            try compositor.touch.frame()
            // Well past the window after the first lift: the second finger still holds.
            try await Task.sleep(for: .milliseconds(700))
            #expect(!applied, "applied while a finger was down: \(run.stdoutLines.suffix(3))")
            try compositor.touch.up(id: 1)
            try compositor.touch.frame()
            let lifted = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(150))
            #expect(!applied, "applied before the window after the last lift")
            _ = try await run.waitForLines("42.5") { $0.last.flatMap(value) == 42.5 }
            #expect(ContinuousClock.now - lifted >= .milliseconds(250))
            let touched = dump.messages.filter { $0.address == "/x/touched" }.map { $0.types + " " + $0.arguments.joined() }
            #expect(touched == ["i 1", "i 0"], "\(touched)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// `--settle 0`: the target that waited for the finger applies at the lift.
    @Test func settleZeroAppliesAtTheLift() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--format", "json", "--settle", "0"])
            try await touchReady(compositor, run)
            try compositor.touch.down(on: surface, x: 250, y: 24)
            try compositor.touch.frame()
            try await run.wait(for: "the finger's glide") { run.stdoutLines.last.flatMap(value).map { $0 > 60 } == true }
            let up = run.stdoutLines.count
            run.send("42.5\n")
            try await Task.sleep(for: .milliseconds(300))
            #expect(!run.stdoutLines.dropFirst(up).contains { value($0).map { $0 < 50 } == true }, "applied while the finger was down")
            try compositor.touch.up()
            try compositor.touch.frame()
            let lines = try await run.waitForLines("42.5") { $0.last.flatMap(value) == 42.5 }
            let ended = try #require(lines.firstIndex { $0.contains("\"ended\"") })
            let endedTime = try #require(time(lines[ended]))
            let endedValue = try #require(value(lines[ended]))
            let falling = try #require(lines[ended...].first { value($0).map { $0 < endedValue - 0.01 } == true }.flatMap(time))
            #expect(falling - endedTime <= 50, "applied \(falling - endedTime) ms after the lift")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// No line under 50 (an outside target) from the finger's glide above 60 until the window
    /// after the lift has run; from then
    /// on one glide down to `target`, every line lower than the one before.
    private func checkNothingAppliedEarly(_ lines: [String], settle: Double, target: Double,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ended = try #require(lines.lastIndex { $0.contains("\"ended\"") }, "\(lines.suffix(5))", sourceLocation: sourceLocation)
        let endedTime = try #require(time(lines[ended]), sourceLocation: sourceLocation)
        let up = try #require(lines.firstIndex { value($0).map { $0 > 60 } == true }, sourceLocation: sourceLocation)
        let early = lines[up..<ended] + lines[ended...].filter { time($0).map { $0 < endedTime + settle * 1000 - 20 } == true }
        #expect(!early.contains { value($0).map { $0 < 50 } == true }, "a target applied before the window's end: \(early.suffix(5))",
                sourceLocation: sourceLocation)
        let glide = lines[ended...].compactMap(value).drop { $0 >= 50 }
        #expect(isAscending(glide.reversed(), strictly: true) && glide.last == target, "not one glide to \(target): \(Array(glide))",
                sourceLocation: sourceLocation)
    }

    private func touchReady(_ compositor: TestCompositor, _ run: WlsliderProcess) async throws {
        let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
        try await compositor.waitUntil("wlslider to take the touch device", timeout: patience) {
            $0.clients[client]?.requests("wl_seat.get_touch") ?? 0 > 0
        }
    }
}

@Suite struct TouchedWithoutReceiverTests {
    /// `--osc` to a port nobody listens on, and 30 taps, each an ADDRESS/touched 1 and 0 into the
    /// ICMP refusals of the ones before: one line on stderr, as the README promises for an OSC
    /// receiver that is not running, wlslider alive and idle afterwards, a target from stdin still
    /// applied.
    @Test func touchedToNoReceiverIsOneLine() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--settle", "0.05", "--osc", "127.0.0.1:9/x"])
            let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
            try await compositor.waitUntil("wlslider to take the touch device", timeout: patience) {
                $0.clients[client]?.requests("wl_seat.get_touch") ?? 0 > 0
            }
            for tap in 0..<30 {
                try compositor.touch.down(on: surface, x: tap % 2 == 0 ? 250 : 100, y: 24)
                try compositor.touch.frame()
                try await Task.sleep(for: .milliseconds(20))
                try compositor.touch.up()
                try compositor.touch.frame()
                try await Task.sleep(for: .milliseconds(20))
            }
            try await run.expectStillRunning(for: .milliseconds(500))
            let taps = numbers(run.stdoutLines)
            #expect(taps.count > 30 && (taps.max() ?? 0) - (taps.min() ?? 0) > 20, "the taps did not move the slider: \(taps.count) lines, \(taps.min() ?? 0)…\(taps.max() ?? 0)")
            let cpu = try await run.idleCPUMilliseconds(over: .seconds(1))
            #expect(cpu < 20, "idle wlslider used \(cpu) ms of CPU")
            run.send("20\n")
            try await run.waitForLastLine("20.00")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
            #expect(run.stderrLines == ["wlslider: osc: send to 127.0.0.1:9/x: Connection refused (errno 111); is the receiver running? (reported once; sending goes on)"],
                    "\(run.stderrText)")
        }
    }
}

private func value(_ line: String) -> Double? { FingerWinsTests.value(line) }
private func time(_ line: String) -> Double? { FingerWinsTests.time(line) }
