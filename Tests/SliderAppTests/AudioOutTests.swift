// `--audio-out FILE --rate N` through the binary (issue 5 §4): f32le samples in real time whose
// count matches how long wlslider ran, and which glide without zipper steps after a stdin jump.
//
// The compositor withholds frame callbacks here: the audio stream is sampled from the engine at
// any time and needs no frames, and without compositor timestamps wlslider's clock is the
// monotonic clock, which the test's own time bounds can be compared with.
import Glibc
import TestCompositor
import Testing

@Suite struct AudioOutTests {
    static func samples(_ path: String) -> [Float] {
        readFile(path).withUnsafeBytes { raw in
            (0..<raw.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// The largest slope of each timing curve, in span per duration: linear 1; ease-in
    /// (0.42, 0, 1, 1) ends along the line from its first control point, slope 1 / 0.58.
    @Test(arguments: [("linear", 1.0), ("ease-in", 1 / 0.58)])
    func samplesGlideWithoutZipperAndLastAsLongAsTheRun(curve: String, maxSlope: Double) async throws {
        let directory = makeTemporaryDirectory("audio")
        defer { removeDirectory(directory) }
        let path = directory + "/out.f32"
        let rate = 48_000.0, duration = 0.25
        try await withTestCompositor(StreamFixture.configuration(frames: .withheld)) { compositor in
            let clock = ContinuousClock()
            let spawned = clock.now
            let run = try WlsliderProcess(
                ["--value", "0", "--audio-out", path, "--rate", "48000", "--curve", curve, "--jump-duration", String(duration)],
                environment: compositor.environment)
            try await run.waitForLines("the initial value") { !$0.isEmpty }
            let started = clock.now
            // 0.1 s of the resting value, then the jump, then until 0.1 s of the target are out.
            try await run.wait(for: "0.1 s of samples") { Self.samples(path).count >= Int(rate * 0.1) }
            run.send("100\n")
            try await run.wait(for: "0.1 s at the target") { Self.samples(path).suffix(Int(rate * 0.1)).allSatisfy { $0 == 100 } }
            let signalled = clock.now
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            let ended = clock.now
            #expect(run.stderrText == "")
            #expect(run.stdoutLines.last == "100.00")

            let samples = Self.samples(path)
            // Real time: no fewer samples than the time it surely ran, no more than it could have.
            let atLeast = rate * Self.seconds(started.duration(to: signalled))
            let atMost = rate * Self.seconds(spawned.duration(to: ended))
            #expect(Double(samples.count) >= atLeast && Double(samples.count) <= atMost,
                    "\(samples.count) samples; ran between \(atLeast / rate) s and \(atMost / rate) s")

            // From 0 to 100 in one glide of `duration`, never stepping more than its slope allows.
            let lastRest = try #require(samples.lastIndex { $0 == 0 })
            let firstTarget = try #require(samples.firstIndex { $0 == 100 })
            #expect(samples[..<lastRest].allSatisfy { $0 == 0 } && samples[firstTarget...].allSatisfy { $0 == 100 })
            let glideSamples = Double(firstTarget - lastRest)
            #expect(abs(glideSamples - rate * duration) <= 2, "the glide took \(glideSamples) samples")
            let largestStep = zip(samples, samples.dropFirst()).map { abs(Double($1 - $0)) }.max() ?? 0
            let slopeBound = 100 * maxSlope / (duration * rate)
            #expect(largestStep <= slopeBound * 1.02, "largest step \(largestStep), slope allows \(slopeBound)")
            // What a per-frame (60 Hz) stepped output would have done, for scale.
            #expect(largestStep < 100 / (duration * 60) / 50)
        }
    }

    /// `--scale-output` maps the audio-rate samples like every other sink.
    @Test func samplesFollowTheOutputMapping() async throws {
        let directory = makeTemporaryDirectory("audio")
        defer { removeDirectory(directory) }
        let path = directory + "/out.f32"
        try await withTestCompositor(StreamFixture.configuration(frames: .withheld)) { compositor in
            let run = try WlsliderProcess(["--value", "25", "--scale-output", "0:1", "--audio-out", path, "--rate", "8000"],
                                          environment: compositor.environment)
            try await run.wait(for: "0.05 s of samples") { Self.samples(path).count >= 400 }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            let samples = Self.samples(path)
            #expect(!samples.isEmpty && samples.allSatisfy { $0 == 0.25 }, "\(Set(samples))")
            #expect(run.stdoutLines == ["0.25"])
        }
    }
}

@Suite struct AudioOnStdoutTests {
    /// `--audio-out -`: stdout carries f32le samples and no value lines.
    @Test func samplesGoToStdoutInsteadOfLines() async throws {
        try await withTestCompositor(StreamFixture.configuration(frames: .withheld)) { compositor in
            let run = try WlsliderProcess(["--value", "50", "--audio-out", "-", "--rate", "8000"], environment: compositor.environment)
            try await run.wait(for: "0.05 s of samples") { run.stdoutBytes.count >= 1600 }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            let bytes = run.stdoutBytes
            #expect(bytes.count % 4 == 0)
            let samples = bytes.withUnsafeBytes { raw in
                (0..<raw.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
            #expect(samples.allSatisfy { $0 == 50 }, "\(Set(samples))")
            #expect(run.stderrText == "")
        }
    }

    /// `--audio-out` naming the file stdout already writes to: the samples would be mixed into the
    /// value lines. Refused before anything is written, with status 1 and a pointer to `-`.
    @Test(arguments: ["/dev/stdout", "/proc/self/fd/1"])
    func stdoutUnderAnotherNameIsRefused(path: String) async throws {
        try await withTestCompositor(StreamFixture.configuration(frames: .withheld)) { compositor in
            let run = try WlsliderProcess(["--value", "50", "--audio-out", path, "--rate", "8000"], environment: compositor.environment)
            #expect(try await run.waitForExit() == 1)
            #expect(run.stdoutBytes.isEmpty)
            #expect(run.stderrLines == ["wlslider: --audio-out: \"\(path)\" is stdout, where the value lines go; "
                                        + "use --audio-out - to write the samples there instead of the lines"])
        }
    }

    /// The reader of the audio on stdout goes away (`wlslider --audio-out - | head -c 4000`):
    /// with nothing else to feed, wlslider ends quietly with status 0, as with value lines.
    @Test func closedStdoutEndsQuietly() async throws {
        try await withTestCompositor(StreamFixture.configuration(frames: .withheld)) { compositor in
            let run = try WlsliderProcess(["--audio-out", "-", "--rate", "8000"], environment: compositor.environment)
            try await run.wait(for: "some samples") { run.stdoutBytes.count >= 400 }
            run.closeStdout()
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "", "EPIPE should end wlslider quietly")
        }
    }
}
