import Glibc
import Testing
@testable import SliderOutput

/// Test glides, written out here (the engine's own curves live elsewhere): from `from` to `to`,
/// starting at `start`, lasting `duration`.
struct Glide {
    var from = 0.0, to = 1.0, start = 0.1, duration = 0.25
    var easeIn = false

    func value(at time: Double) -> Double {
        let x = Swift.min(Swift.max((time - start) / duration, 0), 1)
        return from + (to - from) * (easeIn ? Self.cssEaseIn(x) : x)
    }

    /// CSS `ease-in` = cubic-bezier(0.42, 0, 1, 1): solve x(s) = x by bisection, return y(s).
    static func cssEaseIn(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var low = 0.0, high = 1.0
        for _ in 0..<50 {
            let s = (low + high) / 2
            let bx = 3 * (1 - s) * (1 - s) * s * 0.42 + 3 * (1 - s) * s * s + s * s * s
            if bx < x { low = s } else { high = s }
        }
        let s = (low + high) / 2
        return 3 * (1 - s) * s * s + s * s * s
    }

    /// The steepest slope in value units per second, measured on a fine grid.
    var maxSlope: Double {
        let steps = 200_000
        var steepest = 0.0
        var previous = value(at: start)
        for index in 1...steps {
            let time = start + duration * Double(index) / Double(steps)
            let current = value(at: time)
            steepest = Swift.max(steepest, abs(current - previous) / (duration / Double(steps)))
            previous = current
        }
        return steepest
    }

    /// A source sampling the glide at each sample's own time.
    var fill: FillSource {
        FillSource { samples, startTime, rate in
            for index in samples.indices { samples[index] = Float(value(at: startTime + Double(index) / rate)) }
        }
    }

    /// What a per-frame output holds: the value at the last 60 Hz frame before each sample.
    var steppedFill: FillSource {
        FillSource { samples, startTime, rate in
            for index in samples.indices {
                let time = startTime + Double(index) / rate
                samples[index] = Float(value(at: (time * 60).rounded(.down) / 60))
            }
        }
    }
}

/// A value source made of a fill function (the range is 0…1; the writers here map nothing).
final class FillSource: ValueSource {
    let body: (UnsafeMutableBufferPointer<Float>, Double, Double) -> Void
    let range = SliderRange(min: 0, max: 1)

    init(_ body: @escaping (UnsafeMutableBufferPointer<Float>, Double, Double) -> Void) {
        self.body = body
    }

    func fill(_ samples: inout MutableSpan<Float>, from startTime: Double, sampleRate: Double) {
        samples.withUnsafeMutableBufferPointer { body($0, startTime, sampleRate) }
    }
}

/// Calls `write(upTo:)` from a jittery 3–12 ms "timer" in simulated time, then once exactly at `end`.
private func drive(_ writer: AudioRateWriter, until end: Double) {
    var generator = SplitMix(seed: 7)
    var now = writer.startTime
    while now < end {
        now = Swift.min(now + 0.003 + 0.009 * generator.unit(), end)
        #expect(writer.write(upTo: now) == .delivered)
    }
}

private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

private func readFloat32LE(_ path: String) -> [Float] {
    let bytes = readFile(path)
    return stride(from: 0, to: bytes.count - 3, by: 4).map { offset in
        Float(bitPattern: UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24)
    }
}

private func largestStep(_ samples: [Float]) -> Double {
    zip(samples, samples.dropFirst()).map { Double(abs($1 - $0)) }.max() ?? 0
}

@Suite struct AudioRateWriterTests {
    /// After a jump, consecutive samples differ by at most the glide's slope / rate — for a linear
    /// and an ease-in glide — while a per-frame (60 Hz) stepped output jumps by ~800× more.
    @Test(arguments: [false, true])
    func zipperFreeAfterAJump(easeIn: Bool) throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let glide = Glide(easeIn: easeIn)
        for (name, fill) in [("smooth", glide.fill), ("stepped", glide.steppedFill)] {
            let writer = try AudioRateWriter(destination: .path("\(directory)/\(name).f32"), sampleRate: 48_000, startTime: 5, source: FillSource { samples, start, rate in
                fill.body(samples, start - 5, rate)
            })
            drive(writer, until: 5.5)
            #expect(writer.finish(at: 5.5) == .delivered)
        }
        let smooth = readFloat32LE("\(directory)/smooth.f32")
        let stepped = readFloat32LE("\(directory)/stepped.f32")
        #expect(smooth.count == 24_000 && stepped.count == 24_000)
        let bound = glide.maxSlope / 48_000
        print("audio-rate \(easeIn ? "ease-in" : "linear") glide: largest step \(largestStep(smooth)), slope bound \(bound), 60 Hz stepped output \(largestStep(stepped))")
        #expect(largestStep(smooth) <= bound * 1.01 + 1e-7, "largest step \(largestStep(smooth)) vs slope bound \(bound)")
        #expect(largestStep(stepped) > 100 * bound, "stepped output: largest step \(largestStep(stepped))")
        #expect(smooth.first == 0 && smooth.last == 1)
        #expect(smooth[Int(0.1 * 48_000) - 1] == 0 && smooth[Int(0.35 * 48_000) + 1] == 1)
    }

    /// sox (Debian package sox) reads the file as raw f32 mono at 48 kHz.
    @Test func soxReadsTheStream() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let glide = Glide(from: -0.5, to: 0.75)
        let writer = try AudioRateWriter(destination: .path("\(directory)/out.f32"), sampleRate: 48_000, startTime: 0, source: glide.fill)
        drive(writer, until: 1)
        #expect(writer.finish(at: 1) == .delivered)
        let sox = TestProcess(["sox", "-t", "f32", "-r", "48000", "-c", "1", "\(directory)/out.f32", "-n", "stat"], outputPath: "\(directory)/stat.txt")
        var status: Int32 = 0
        waitpid(sox.pid, &status, 0)
        let report = readText("\(directory)/stat.txt")
        func field(_ name: String) -> Double? {
            report.split(separator: "\n").first { $0.hasPrefix(name) }.flatMap { Double($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
        }
        #expect(status == 0, "sox: \(report)")
        // finish(at: 1) ends with the first sample at or after 1 s: the settled value's.
        #expect(field("Samples read") == 48_001)
        #expect(field("Length (seconds)") == 1.000021)
        #expect(field("Minimum amplitude") == -0.5)
        #expect(field("Maximum amplitude") == 0.75)
    }

    /// Integer sample bookkeeping: however irregular the calls, exactly floor((now − start) × rate)
    /// samples are out, and sample i carries the value for time start + i / rate.
    @Test(arguments: [48_000, 44_100, 96_000])
    func noDriftWithIrregularCalls(rate: Int) throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let start = 1234.567
        let writer = try AudioRateWriter(destination: .path("\(directory)/t.f32"), sampleRate: rate, startTime: start, source: FillSource { samples, time, rate in
            // Each sample holds its own time offset (in ms, so a Float has room for the digits).
            for index in samples.indices { samples[index] = Float((time - 1234.567 + Double(index) / rate) * 1000) }
        })
        drive(writer, until: start + 10)
        #expect(writer.framesWritten == Int64(10 * rate))
        let samples = readFloat32LE("\(directory)/t.f32")
        #expect(samples.count == 10 * rate)
        for index in stride(from: 0, to: samples.count, by: 997) {
            #expect(abs(Double(samples[index]) - Double(index) / Double(rate) * 1000) < 0.001)
        }
    }

    /// Every block is filled into the same preallocated buffer.
    @Test func everyBlockReusesTheSameBuffer() throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        final class Seen { var addresses: Set<UnsafeMutableRawPointer?> = []; var blocks = 0 }
        let seen = Seen()
        let writer = try AudioRateWriter(destination: .fileDescriptor(null), sampleRate: 48_000, startTime: 0, blockFrames: 256, source: FillSource { samples, _, _ in
            seen.addresses.insert(UnsafeMutableRawPointer(samples.baseAddress))
            seen.blocks += 1
        })
        var now = 0.0
        for _ in 0..<500 {
            now += 0.0073
            _ = writer.write(upTo: now)
        }
        #expect(seen.blocks > 500 && seen.addresses.count == 1)
    }

    /// No heap allocation per block, counted by valgrind on the benchmark (which drives the writer
    /// with an ease-in glide solved per sample): 2 s and 6 s of audio make exactly as many mallocs.
    /// Needs valgrind and the wlslider-bench executable, which `swift build`/`swift test` build
    /// next to this test binary.
    @Test func hotPathDoesNotAllocateUnderValgrind() throws {
        var exe = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &exe, exe.count - 1)
        let directory = String(decoding: exe[0..<max(length, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let bench = directory + "/wlslider-bench"
        try #require(fileExists(bench), "\(bench) is missing: build the package (swift build) before the tests")
        let temporary = makeTemporaryDirectory()
        defer { removeTree(temporary) }
        let run = TestProcess([bench, "audio", "--allocations"], outputPath: temporary + "/report.txt")
        var status: Int32 = 0
        waitpid(run.pid, &status, 0)
        let report = readText(temporary + "/report.txt")
        #expect(status == 0, "\(report)")
        #expect(report.contains(" 0 more allocations)"), "\(report)")
    }

    /// A reader that stops reading: the writer never blocks, skips ahead once it is more than
    /// `maxLag` behind (one warning), and resumes with current values when the reader drains.
    @Test func slowReaderMakesTheWriterSkipAheadNotLag() throws {
        let pipe = Pipe()
        defer { close(pipe.readEnd) }
        _ = fcntl(pipe.writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
        let writer = try AudioRateWriter(destination: .fileDescriptor(pipe.writeEnd), sampleRate: 48_000, startTime: 0, maxLag: 0.1, source: FillSource { samples, time, rate in
            for index in samples.indices { samples[index] = Float(time + Double(index) / rate) }
        })
        var now = 0.0
        var statuses: [WriteStatus] = []
        while now < 1 {
            now += 0.01
            statuses.append(writer.write(upTo: now))
        }
        #expect(statuses.contains(.waitingForWritable) && writer.wantsWritable)
        #expect(writer.framesSkipped > 0)
        #expect(writer.takeWarnings().count == 1)
        // The reader catches up: drain until the writer has delivered everything due.
        now += 0.01
        var received: [UInt8] = []
        var status = WriteStatus.waitingForWritable
        for _ in 0..<100 where status != .delivered {
            received += pipe.drain()
            status = writer.write(upTo: now)
        }
        received += pipe.drain()
        #expect(status == .delivered)
        let samples = stride(from: 0, to: received.count - 3, by: 4).map { offset in
            received[offset..<(offset + 4)].withUnsafeBytes { Double(Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)))) }
        }
        // Nothing older than maxLag (plus the blocks already queued in the pipe) came through,
        // and the stream ends at the current time.
        #expect(samples.last.map { abs($0 - (now - 1.0 / 48_000)) < 1e-4 } == true)
        #expect(samples.count < Int(0.1 * 48_000) + 2 * 1024 + 480)
        #expect(writer.framesWritten + writer.framesSkipped == Int64((now * 48_000).rounded(.down)))
        close(pipe.writeEnd)
    }

    @Test func closedReaderIsReported() throws {
        signal(SIGPIPE, SIG_IGN)
        let pipe = Pipe()
        close(pipe.readEnd)
        let writer = try AudioRateWriter(destination: .fileDescriptor(pipe.writeEnd), startTime: 0, source: Glide().fill)
        #expect(writer.write(upTo: 0.01) == .readerClosed)
        #expect(writer.write(upTo: 0.02) == .readerClosed)
        close(pipe.writeEnd)
    }

    @Test func optionsAndSetupErrors() throws {
        #expect(try AudioRateWriter.Destination.parse("-") == .standardOutput)
        #expect(try AudioRateWriter.Destination.parse("/tmp/x.f32") == .path("/tmp/x.f32"))
        #expect(throws: OutputOptionError.self) { try AudioRateWriter.Destination.parse("") }
        #expect(try AudioRateWriter.parseRate("48000") == 48_000)
        #expect(throws: OutputOptionError("--rate: \"48k\" is not a sample rate from 1000 to 384000 Hz, e.g. 48000")) { try AudioRateWriter.parseRate("48k") }
        #expect(throws: SinkSetupError("--audio-out: open \"/nonexistent/dir/x.f32\" for writing: No such file or directory (errno 2)")) {
            try AudioRateWriter(destination: .path("/nonexistent/dir/x.f32"), startTime: 0, source: Glide().fill)
        }
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        mkfifo(directory + "/fifo", 0o600)
        #expect(throws: SinkSetupError("--audio-out: open \"\(directory)/fifo\" for writing: No such device or address (errno 6); start the reader of the FIFO first")) {
            try AudioRateWriter(destination: .path(directory + "/fifo"), startTime: 0, source: Glide().fill)
        }
    }
}
