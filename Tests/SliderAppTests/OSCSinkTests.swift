// `--osc` through the binary, received by liblo's oscdump (issue 5 §2).
import Foundation
import Glibc
import TestCompositor
import Testing

@Suite struct OSCSinkTests {
    /// Values arrive as `,f` on the address, phases as `,s` on ADDRESS/phase: the initial value,
    /// a stdin glide (no gesture phase), then a touch gesture with began … ended.
    @Test func valuesAndPhasesReachOscdump() async throws {
        let dump = try await OSCDump()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "25", "--osc", "127.0.0.1:\(dump.port)/x"])
            try await dump.wait(for: "the initial value") { _ in dump.floats(at: "/x") == [25] }
            #expect(dump.strings(at: "/x/phase") == ["idle"])

            run.send("60\n")
            try await dump.wait(for: "the glide to 60") { _ in dump.floats(at: "/x").last == 60 }
            let glide = dump.floats(at: "/x")
            #expect(isAscending(glide, strictly: true), "\(glide)")
            #expect(glide.count >= run.stdoutLines.count - 1, "fewer OSC values than stdout lines: \(glide) vs \(run.stdoutLines)")
            #expect(dump.strings(at: "/x/phase") == ["idle"], "a stdin set has no gesture phases")

            // A finger presses at 3/4 of the track, drags to the start, lifts.
            let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
            try await compositor.waitUntil("wlslider to take the touch device", timeout: patience) {
                $0.clients[client]?.requests("wl_seat.get_touch") ?? 0 > 0
            }
            try compositor.touch.down(on: surface, x: 240, y: 24)
            try compositor.touch.frame()
            try await dump.wait(for: "began") { _ in dump.strings(at: "/x/phase").contains("began") }
            try compositor.touch.motion(x: 0, y: 24)
            try compositor.touch.frame()
            try await dump.wait(for: "moved") { _ in dump.strings(at: "/x/phase").contains("moved") }
            try compositor.touch.up()
            try compositor.touch.frame()
            try await dump.wait(for: "ended") { _ in dump.strings(at: "/x/phase").contains("ended") }
            // idle, began, moved…, ended, then idle again if the value still glides after the lift.
            var phases = dump.strings(at: "/x/phase")[...]
            #expect(phases.popFirst() == "idle" && phases.popFirst() == "began", "\(phases)")
            if phases.last == "idle" { phases.removeLast() }
            #expect(phases.popLast() == "ended", "\(phases)")
            #expect(!phases.isEmpty && phases.allSatisfy { $0 == "moved" }, "\(phases)")

            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            // The gesture ended at the start of the track; every sink agrees on the last value.
            try await dump.wait(for: "the final value") { _ in dump.floats(at: "/x").last.map { abs($0 - (Double(run.stdoutLines.last ?? "") ?? .nan)) < 0.006 } == true }
            #expect(run.stdoutLines.last == "0.00", "\(run.stdoutLines)")
            #expect(run.stderrText == "")
        }
    }

    /// `--osc-timetags`: each sample is a bundle stamped with its frame's time. The stamps are on
    /// the wall clock, a value and its phase share their bundle's stamp, and the stamps lie as far
    /// apart as the frame times printed in the JSON lines. `--scale-output` maps OSC values too.
    @Test func timetaggedBundlesCarryTheFrameTimes() async throws {
        let dump = try await OSCDump()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider([
                "--value", "25", "--scale-output", "0:1", "--format", "json", "--precision", "4",
                "--osc", "127.0.0.1:\(dump.port)/fader", "--osc-timetags",
            ])
            try await dump.wait(for: "the initial bundle") { $0.count >= 2 }
            let initial = dump.messages
            #expect(initial.map(\.address) == ["/fader", "/fader/phase"], "\(initial)")
            #expect(initial[0].timetag == initial[1].timetag, "value and phase not in one bundle: \(initial)")
            #expect(dump.floats(at: "/fader") == [0.25])
            let start = try #require(initial[0].unixTime)
            #expect(abs(start - Date().timeIntervalSince1970) < 60, "timetag \(start) is not wall-clock time")

            run.send("75\n")
            try await dump.wait(for: "the glide to 0.75") { _ in dump.floats(at: "/fader").last == 0.75 }
            let lines = try await run.waitForLines("0.75 on stdout") { $0.last?.contains("\"value\":0.7500,") == true }
            let times = lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["t"] as? Int
            }
            let values = dump.messages.filter { $0.address == "/fader" }
            let stamps = values.compactMap(\.unixTime)
            #expect(isAscending(stamps), "\(values)")
            // Frame time of the last sample minus that of the first: same in both sinks (JSON ms are rounded).
            let oscSpan = stamps.last! - stamps.first!
            let jsonSpan = Double(times.last! - times.first!) / 1000
            #expect(abs(oscSpan - jsonSpan) < 0.002, "OSC span \(oscSpan) s, JSON span \(jsonSpan) s")
            #expect(jsonSpan > 0.2, "a 0.25 s glide took \(jsonSpan) s of frame time")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }
}
