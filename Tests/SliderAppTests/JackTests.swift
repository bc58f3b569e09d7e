// `--jack` and `--midi-cc` through the binary (issue 11), against a private jack2 server with the
// dummy backend: the port recorded by jack_rec and compared, sample by sample, with the engine's
// own value(at:); MIDI read by jack_midi_dump; the failure rules; libjack absent without the options.
import Foundation
import Glibc
import SliderEngine
import TestCompositor
import Testing

@Suite(.serialized) struct JackPortTests {
    /// A tap-like jump (stdin "75" from 25, scaled to 0…1) recorded on the port: every sample of the
    /// 0.25 s ease-in glide lies on the engine's curve within 1e-6, the samples one frame apart in
    /// time (the glide spans exactly a quarter of the rate's frames), at 48 kHz with periods of
    /// 64, 256 and 1024 frames; at the ends of the rates a server offers (8 kHz with 16-frame
    /// periods, 2 ms; 192 kHz with 4096, 21 ms), at 8 kHz with a period twice as long as the glide
    /// (4096 frames, 0.5 s), and with a period that is no power of two (100). wlslider's way out
    /// (SIGTERM) stays quiet at each: it waits for a whole period on the target, which with
    /// half-second periods can take over a second.
    ///
    /// jackd runs with real-time scheduling here: without it, on a busy machine (other tests run
    /// at the same time) a 1.3 ms period can pass before the kernel even starts a client's thread,
    /// and jackd skips the period ("XRun: client = … was not finished, state = Triggered"), which
    /// breaks any recording. Should one still come, the recording is taken again on a new server, up to three
    /// times; the comparison is made on one without. So is one whose target the test itself sent
    /// too late for the recording (the machine was that busy).
    @Test(arguments: [(48_000, 64), (48_000, 256), (48_000, 1024), (8_000, 16), (192_000, 4096), (8_000, 4096), (48_000, 100)])
    func everySampleOfAGlideLiesOnTheEngineCurve(rate: Int, period: Int) async throws {
        let directory = makeTemporaryDirectory("jack")
        defer { removeDirectory(directory) }
        let wav = directory + "/value.wav"
        // A server of its own for each attempt: on the same server after an XRun, the glide's
        // first period landed a period late (seen twice, both times on the attempt after an XRun).
        let seconds = Self.recordSeconds(rate: rate, period: period)
        let (recorded, attempts, log) = try await JackServer.untilCleanAttempt({ try await JackServer(period: period, rate: rate, realtime: true) }) { server in
            let (recorded, sentAfter) = try await recordGlide(server: server, seconds: seconds, to: wav)
            return (recorded, again: sentAfter > .seconds(seconds - 1))
        }
        try check(recorded, seconds: seconds, rate: rate, period: period, attempts: attempts, log: log)
    }

    /// How long jack_rec records: the target goes out 0.3 s after its port appears, which on a
    /// busy machine can be a second or more after it began; with half-second periods, several
    /// seconds (each jack_lsp that looks for the port waits for the graph's cycles).
    static func recordSeconds(rate: Int, period: Int) -> Int { 4 + 8 * period / rate }

    /// Starts wlslider at 25 (scaled 0…1), records its port and sends "75" meanwhile. Returns the
    /// samples and how long after jack_rec started the target was sent.
    private func recordGlide(server: JackServer, seconds: Int, to wav: String) async throws -> ([Double], Duration) {
        var sentAfter = Duration.zero
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try await startJackWlslider(["--jack", "--value", "25", "--scale-output", "0:1"], server: server, compositor: compositor)
            try await server.waitForPort("wlslider:value", of: run)
            let recording = ContinuousClock.now
            let recorder = try WlsliderProcess(["-f", wav, "-d", String(seconds), "-b", "32", "wlslider:value"],
                                               environment: server.environment, executable: "jack_rec")
            try await server.waitForPort("jackrec:input1", of: recorder)
            try await Task.sleep(for: .milliseconds(300))
            run.send("75\n")
            sentAfter = ContinuousClock.now - recording
            #expect(try await recorder.waitForExit() == 0, "\(recorder.summary)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
        return (wavSamples(wav), sentAfter)
    }

    private func check(_ samples: [Double], seconds: Int, rate: Int, period: Int, attempts: Int, log: String) throws {
        #expect(samples.count == seconds * rate, "jack_rec wrote \(samples.count) samples")
        let first = try #require(samples.firstIndex { $0 > 0.25 + 1e-6 }, "no glide in the recording")
        let last = try #require(samples.lastIndex { $0 < 0.75 - 1e-6 }, "the glide never ended")
        // (jack_rec may record silence before its connection carries our port.)
        let before = samples[..<first].drop { $0 == 0 }
        #expect(before.count > rate / 10 && before.allSatisfy { abs($0 - 0.25) < 1e-6 }, "\(Set(before))")
        #expect(samples[(last + 1)...].allSatisfy { abs($0 - 0.75) < 1e-6 })
        // Where the glide started, in frames (not on the frame grid): fitted on the sample
        // halfway up, then every sample checked against the engine.
        let middle = try #require(samples.firstIndex { $0 >= 0.5 })
        let start = fitGlideStart(samples[middle], atFrame: middle, rate: Double(rate))
        let (worst, at) = deviation(samples, glideStart: start, from: max(0, first - 200), to: min(samples.count, last + 200), rate: Double(rate))
        let place = "glide start at frame \(start), glide \(first)–\(last), rate \(rate), period \(period), attempt \(attempts)"
        #expect(worst <= 1e-6, "sample \(at) is \(worst) off the engine's curve (\(place))\njackd: \(log.suffix(1500))")
        #expect(abs(Double(last - first) - Double(rate) / 4) < Double(rate) / 320, "the glide took \(last - first) frames at \(rate) Hz")
    }

    /// The port is a control signal: JACK metadata signal-type = CV, read back with jack_property.
    @Test func portIsTaggedAsControlVoltage() async throws {
        let server = try await JackServer()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try await startJackWlslider(["--jack", "--jack-name", "fader"], server: server, compositor: compositor)
            try await server.waitForPort("fader:value", of: run)
            let property = try await server.runTool(["jack_property", "-p", "-l", "fader:value", "http://jackaudio.org/metadata/signal-type"])
            #expect(property.stdout.split(separator: "\n").first == "CV", "\(property)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// The MIDI port, read by jack_midi_dump (connected by --jack-connect): control changes that rise
    /// with the glide, each at its own frame (not all on period starts), at most one per
    /// millisecond, the last one the target; with 14 bits, MSB on NUMBER then LSB on NUMBER+32.
    ///
    /// jack_midi_dump stamps an event with the frames *it* has processed, so a period it misses
    /// (jackd logs "XRun: client = midi-monitor was not finished" on a busy machine) moves every
    /// later event a period earlier than it was sent: the events after the gap then look a period
    /// ahead of the glide, and closer than 1 ms to the one before (seen 3 times in 9 runs with both
    /// cores busy, each time with that XRun in jackd's log). So jackd runs with real-time
    /// scheduling, and an attempt with an XRun is taken again on a new server, up to three times;
    /// the checks are made on one without.
    @Test(arguments: [false, true])
    func controlChangesFollowTheGlide(fourteenBit: Bool) async throws {
        let (events, attempts, log) = try await JackServer.untilCleanAttempt({ try await JackServer(realtime: true) }) { server in
            (try await recordControlChanges(server: server, fourteenBit: fourteenBit), again: false)
        }
        checkControlChanges(events, fourteenBit: fourteenBit, context: "attempt \(attempts); jackd: \(log.suffix(1500))")
    }

    /// Starts wlslider at 25 with a MIDI port connected to jack_midi_dump and sends "75"; returns
    /// the events jack_midi_dump printed once the target's control change came.
    private func recordControlChanges(server: JackServer, fourteenBit: Bool) async throws -> [MIDIEvent] {
        let dump = try WlsliderProcess(["stdbuf", "-oL", "jack_midi_dump", "-a"], environment: server.environment, executable: "env")
        try await server.waitForPort("midi-monitor:input", of: dump)
        var events: [MIDIEvent] = []
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let controller = fourteenBit ? "1" : "7"
            let run = try await startJackWlslider(["--midi-cc", controller, "--midi-channel", "3", "--value", "25"]
                                                  + (fourteenBit ? ["--midi-14bit"] : []) + ["--jack-connect", "midi-monitor:input"],
                                                  server: server, compositor: compositor)
            try await Task.sleep(for: .milliseconds(200))
            run.send("75\n")
            let target = Self.target(fourteenBit)
            try await dump.wait(for: "the target's control change") { Self.values(MIDIEvent.parse(dump.stdoutText), fourteenBit).last?.value == target }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
            events = MIDIEvent.parse(dump.stdoutText)
        }
        return events
    }

    /// 0.75 of 16383 or 127, rounded.
    private static func target(_ fourteenBit: Bool) -> Int { fourteenBit ? 12287 : 95 }

    private func checkControlChanges(_ events: [MIDIEvent], fourteenBit: Bool, context: String) {
        #expect(events.allSatisfy { $0.bytes.count == 3 && $0.bytes[0] == 0xB2 }, "\(events.prefix(4))")
        if fourteenBit {
            #expect(events.count % 2 == 0 && stride(from: 0, to: events.count - 1, by: 2).allSatisfy {
                events[$0].bytes[1] == 1 && events[$0 + 1].bytes[1] == 33 && events[$0].frame == events[$0 + 1].frame
            }, "not MSB/LSB pairs: \(events.prefix(6))")
        } else {
            #expect(events.allSatisfy { $0.bytes[1] == 7 })
        }
        let values = Self.values(events, fourteenBit)
        #expect(values.count > 20, "\(values.count) control changes for a glide across half the range")
        // The first pair that does not rise or lies closer than 1 ms, shown with its neighbours.
        let bad = values.indices.dropLast().first { !(values[$0 + 1].value > values[$0].value && values[$0 + 1].frame - values[$0].frame >= 48) }
        let around = bad.map { Array(values[max($0 - 3, 0)..<min($0 + 4, values.count)]) } ?? []
        #expect(bad == nil, "not rising, or closer than 1 ms, at control change \(bad ?? -1) of \(values.count): \(around)\n\(context)")
        #expect(values.last?.value == Self.target(fourteenBit))
        // Events at period starts only would lie whole periods apart.
        #expect(zip(values, values.dropFirst()).contains { ($1.frame - $0.frame) % 256 != 0 }, "every event sits on a period's first frame")
    }

    /// The control values in `events`: one per event, or one per MSB/LSB pair.
    static func values(_ events: [MIDIEvent], _ fourteenBit: Bool) -> [(frame: Int, value: Int)] {
        guard fourteenBit else { return events.filter { $0.bytes.count == 3 }.map { ($0.frame, Int($0.bytes[2])) } }
        var result: [(frame: Int, value: Int)] = []
        var msb: Int?
        for event in events where event.bytes.count == 3 {
            if event.bytes[1] < 32 { msb = Int(event.bytes[2]) } else if let high = msb { result.append((event.frame, high << 7 | Int(event.bytes[2]))) }
        }
        return result
    }

    /// SIGTERM in the middle of a 5 s glide: the engine settles on the target, and the port's last
    /// period before the client goes ends on it; the last MIDI event carries it.
    @Test func theWayOutEndsThePortAndMIDIOnTheTarget() async throws {
        let server = try await JackServer(period: 1024)
        let directory = makeTemporaryDirectory("jack")
        defer { removeDirectory(directory) }
        let wav = directory + "/value.wav"
        let dump = try WlsliderProcess(["stdbuf", "-oL", "jack_midi_dump", "-a"], environment: server.environment, executable: "env")
        try await server.waitForPort("midi-monitor:input", of: dump)
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try await startJackWlslider(["--jack", "--midi-cc", "20", "--jack-connect", "midi-monitor:input", "--value", "25",
                                                   "--scale-output", "0:1", "--jump-duration", "5"], server: server, compositor: compositor)
            // 5 s: wlslider goes some 0.5 s after the recorder's port appears, which on a busy
            // machine can be a second or more after it began recording.
            let recorder = try WlsliderProcess(["-f", wav, "-d", "5", "-b", "32", "wlslider:value"],
                                               environment: server.environment, executable: "jack_rec")
            try await server.waitForPort("jackrec:input1", of: recorder)
            run.send("75\n")
            try await Task.sleep(for: .milliseconds(500))
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.last == "0.75", "\(run.stdoutLines.suffix(3))")
            #expect(try await recorder.waitForExit() == 0)
            let samples = wavSamples(wav)
            // After the client went, the recorder's input is silent: the last sound is the target.
            let end = try #require(samples.lastIndex { $0 != 0 })
            #expect(abs(samples[end] - 0.75) < 1e-6, "the port ended on \(samples[end])")
            let glideEnd = try #require(samples.lastIndex { abs($0 - 0.75) > 1e-6 && $0 != 0 })
            #expect(samples[glideEnd] < 0.5, "the glide had not come far: it was cut short, then settled")
            #expect(end - glideEnd >= 1024, "less than a period on the target: \(end - glideEnd) frames")
            try await dump.wait(for: "the final control change") { MIDIEvent.parse(dump.stdoutText).last?.bytes.last == 95 }
        }
    }
}

/// Freewheeling (`jack_freewheel 1`, as a DAW's export does): the graph runs its periods back to
/// back, as fast as the clients compute them, on JACK's thread.
@Suite(.serialized) struct JackFreewheelTests {
    /// While the graph freewheels, a glide from stdin goes up on MIDI without ever going back
    /// (the frame counter runs far ahead of time then, and stamping periods from it, then from the
    /// clock, made the control changes of one glide go up and down some hundred times) and
    /// reaches its target on stdout, on MIDI and on the port (read once the graph runs in real
    /// time again); wlslider's main thread stays idle (the periods are JACK's thread's work), and
    /// SIGTERM mid-glide ends wlslider quietly, its last control change the target.
    @Test func aFreewheelingGraphNeitherHangsNorSpinsNorLosesTheTarget() async throws {
        let server = try await JackServer(period: 256, nice: true)
        let directory = makeTemporaryDirectory("freewheel")
        defer { removeDirectory(directory) }
        let dump = try WlsliderProcess(["stdbuf", "-oL", "jack_midi_dump", "-a"], environment: server.environment, executable: "env")
        try await server.waitForPort("midi-monitor:input", of: dump)
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try await startJackWlslider(["--jack", "--midi-cc", "20", "--jack-connect", "midi-monitor:input", "--value", "25",
                                                   "--scale-output", "0:1"], server: server, compositor: compositor)
            try await server.waitForPort("wlslider:value", of: run)
            #expect(try await server.runTool(["jack_freewheel", "1"]).status == 0)
            try await Task.sleep(for: .milliseconds(200))
            var lastControl: Int? { MIDIEvent.parse(dump.stdoutText).last.map { Int($0.bytes[2]) } }
            run.send("75\n")
            try await run.waitForLastLine("0.75")
            try await dump.wait(for: "the target's control change while freewheeling") { lastControl == 95 }
            // Each control change once, rising: the value never ran back. (Alone on the machine
            // the server runs some fifty times faster than real time, and the glide's changes lie
            // hundreds of thousands of frames apart; at nice 19 among other tests it may run far
            // slower, and send fewer of them.)
            let events = MIDIEvent.parse(dump.stdoutText).drop { $0.bytes[2] == 32 }
            #expect(isAscending(events.map { Double($0.bytes[2]) }, strictly: true), "\(events.map { "\($0.frame):\($0.bytes[2])" }.prefix(40))")
            let before = run.mainThreadCPUNanoseconds
            try await Task.sleep(for: .milliseconds(500))
            let main = Double(run.mainThreadCPUNanoseconds - before) / 1e6
            #expect(main < 10, "wlslider's main thread used \(main) ms of CPU in 0.5 s of a freewheeling graph")
            try await run.expectStillRunning(for: .milliseconds(1))

            // Back in real time, the port stands on the target.
            #expect(try await server.runTool(["jack_freewheel", "0"]).status == 0)
            let wav = directory + "/value.wav"
            let recorder = try WlsliderProcess(["-f", wav, "-d", "1", "-b", "32", "wlslider:value"], environment: server.environment, executable: "jack_rec")
            #expect(try await recorder.waitForExit() == 0)
            let samples = wavSamples(wav).drop { $0 == 0 }
            #expect(samples.count > 1000 && samples.allSatisfy { abs($0 - 0.75) < 1e-6 }, "\(Set(samples).prefix(5))")

            // SIGTERM mid-glide while freewheeling: out at once, on the target.
            #expect(try await server.runTool(["jack_freewheel", "1"]).status == 0)
            try await Task.sleep(for: .milliseconds(200))
            run.send("50\n")
            try await run.wait(for: "the glide to 0.50") { run.stdoutLines.last.flatMap(Double.init).map { $0 < 0.75 } == true }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit(timeout: .seconds(10)) == 0)
            #expect(run.stdoutLines.last == "0.50")
            #expect(run.stderrText == "")
            try await dump.wait(for: "the final control change") { lastControl == 64 }
        }
    }
}

/// Where a glide from 0.25 to 0.75 (ease-in, 0.25 s, scaled 0…1 from 25…75 of 0…100) must have
/// started, in frames, for the engine to give `value` at `frame`: bisection on the start.
func fitGlideStart(_ value: Double, atFrame frame: Int, rate: Double) -> Double {
    var lo = Double(frame) - rate / 4, hi = Double(frame)
    for _ in 0..<80 {
        let mid = (lo + hi) / 2
        // A later start gives a smaller value at the same frame.
        if engineGlide(start: mid, at: Double(frame), rate: rate) > value { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
}

/// The engine's value (scaled to 0…1) at `frame` of a stdin jump from 25 to 75 made at frame `start`.
func engineGlide(start: Double, at frame: Double, rate: Double) -> Double {
    var slider = try! Slider(configuration: SliderConfiguration(), value: 25, at: 0)
    try! slider.setTarget(75, at: start / rate)
    return slider.value(at: frame / rate) / 100
}

/// The largest difference between `samples[range]` and the engine's glide, and where.
func deviation(_ samples: [Double], glideStart: Double, from: Int, to: Int, rate: Double) -> (Double, Int) {
    var slider = try! Slider(configuration: SliderConfiguration(), value: 25, at: 0)
    try! slider.setTarget(75, at: glideStart / rate)
    var worst = 0.0, at = from
    for i in from..<to {
        let d = abs(samples[i] - slider.value(at: Double(i) / rate) / 100)
        if d > worst { (worst, at) = (d, i) }
    }
    return (worst, at)
}
