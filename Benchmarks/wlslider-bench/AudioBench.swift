// `wlslider-bench audio`: the cost of producing audio-rate output (f32le mono) with
// SliderOutput's AudioRateWriter, in simulated time (no sleeping): the writer is called every
// --period-ms of simulated time, exactly as the app's timer would, and writes to /dev/null.
// The glide is a cubic-Bézier ease-in solved per sample (Newton steps, bisection fallback),
// restarted toward a new target every 0.3 s, so every sample pays for a curve evaluation.
// With --allocations the command re-runs itself under valgrind for two durations and prints the
// difference in heap allocations per block: 0 means the hot path does not allocate.
import Glibc
import SliderOutput

let audioBenchCommand = BenchCommand(
    name: "audio",
    summary: "Produces audio-rate output into /dev/null and prints its cost per second of audio (--allocations: heap allocations per block under valgrind).",
    run: runAudioBench
)

private let audioHelp = """
    Usage: wlslider-bench audio [--seconds S] [--rate HZ] [--period-ms P] [--allocations] [--quiet]
      --seconds S     Seconds of audio to produce (default 60).
      --rate HZ       Sample rate (default 48000).
      --period-ms P   Simulated timer period between write calls (default 10).
      --allocations   Run under valgrind for 2 s and 6 s of audio and print heap allocations per block;
                      exits 1 unless both runs allocate exactly as often.
      --quiet         Measure but print nothing (used by --allocations).
    """

private struct AudioBenchOptions {
    var seconds = 60.0
    var rate = 48_000
    var periodMilliseconds = 10.0
    var allocations = false
    var quiet = false

    static func parse(_ arguments: [String]) -> (AudioBenchOptions?, String?) {
        var options = AudioBenchOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" { return (nil, nil) }
            if flag == "--allocations" { options.allocations = true; continue }
            if flag == "--quiet" { options.quiet = true; continue }
            guard let text = rest.popFirst(), let number = Double(text), number > 0 else {
                return (nil, "\(flag) needs a positive number")
            }
            switch flag {
            case "--seconds": options.seconds = number
            case "--rate": options.rate = Int(number)
            case "--period-ms": options.periodMilliseconds = number
            default: return (nil, "unknown option '\(flag)'")
            }
        }
        return (options, nil)
    }
}

/// CSS ease-in, cubic-bezier(0.42, 0, 1, 1): gliding from `from` to `to` over `duration` from `start`.
/// `hint` carries the curve parameter of the previous sample: consecutive samples lie close
/// together on the curve, so Newton's method usually converges in one or two steps from it.
private struct EaseInGlide {
    var from = 0.0, to = 100.0, start = 0.0
    let inverseDuration = 1 / 0.25
    var hint = 0.0

    mutating func value(at time: Double) -> Double {
        let x = (time - start) * inverseDuration
        if x <= 0 { return from }
        if x >= 1 { return to }
        return from + (to - from) * bezierY(solvingX: x)
    }

    /// Solves x(s) = x for the curve parameter s (Newton from the hint, bisection when the
    /// slope is flat or Newton leaves [0, 1]), returns y(s).
    private mutating func bezierY(solvingX x: Double) -> Double {
        let (x1, x2) = (0.42, 1.0)
        let (a, b, c) = (1 - 3 * x2 + 3 * x1, 3 * x2 - 6 * x1, 3 * x1)
        var s = hint
        var converged = false
        for _ in 0..<8 {
            let error = ((a * s + b) * s + c) * s - x
            if abs(error) < 1e-9 { converged = true; break }
            let slope = (3 * a * s + 2 * b) * s + c
            if abs(slope) < 1e-6 { break }
            s -= error / slope
            if s < 0 || s > 1 { break }
        }
        if !converged { s = Self.bisect(x, a: a, b: b, c: c) }
        hint = s
        return (3 - 2 * s) * s * s
    }

    private static func bisect(_ x: Double, a: Double, b: Double, c: Double) -> Double {
        var (low, high) = (0.0, 1.0)
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if ((a * mid + b) * mid + c) * mid < x { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}

/// The bench's stand-in for the engine: a new ease-in glide every 0.3 s, alternating direction,
/// so the curve is solved for every sample. A class so the fill closure can carry it across blocks;
/// the loop works on a local copy (class properties cost an exclusivity check per access).
private final class GlideSchedule {
    var glide = EaseInGlide()
    var nextRestart = 0.3

    func fill(_ samples: UnsafeMutableBufferPointer<Float>, start: Double, rate: Double) {
        var current = glide
        var restart = nextRestart
        let step = 1 / rate
        for index in samples.indices {
            let time = start + Double(index) * step
            if time >= restart {
                current.start = restart
                current.hint = 0
                (current.from, current.to) = (current.to, current.from)
                restart += 0.3
            }
            samples[index] = Float(current.value(at: time))
        }
        glide = current
        nextRestart = restart
    }
}

private func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

private func runAudioBench(_ arguments: [String]) -> Int32 {
    let (parsed, error) = AudioBenchOptions.parse(arguments)
    guard let options = parsed else {
        if let error { return usageError(error, help: audioHelp) }
        print(audioHelp)
        return 0
    }
    return options.allocations ? measureAllocations(options) : measureCost(options)
}

private func measureCost(_ options: AudioBenchOptions) -> Int32 {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(null) }
    let schedule = GlideSchedule()
    let writer: AudioRateWriter
    do {
        writer = try AudioRateWriter(destination: .fileDescriptor(null), sampleRate: options.rate, startTime: 0) { samples, start, rate in
            schedule.fill(samples, start: start, rate: rate)
        }
    } catch {
        printError("Error: \(error)")
        return 1
    }
    let period = options.periodMilliseconds / 1000
    let calls = Int((options.seconds / period).rounded(.up))
    let before = processCPUSeconds()
    for call in 1...calls {
        _ = writer.write(upTo: min(Double(call) * period, options.seconds))
    }
    let cpu = processCPUSeconds() - before
    // Under --allocations the runs print nothing: number texts of varying length would allocate
    // differently and blur the count.
    if options.quiet { return 0 }
    let frames = Double(writer.framesWritten)
    print("audio: \(fixed(options.seconds, 1)) s of audio at \(options.rate) Hz (\(writer.framesWritten) samples, \(calls) writes of \(fixed(options.periodMilliseconds, 1)) ms)")
    print("audio: \(fixed(cpu * 1000, 2)) ms CPU → \(fixed(cpu / options.seconds * 1000, 3)) ms per second of audio, \(fixed(options.seconds / cpu, 0))× real time, \(fixed(cpu / frames * 1e9, 1)) ns per sample")
    return 0
}

/// Runs this binary under valgrind twice (2 s and 6 s of audio) and compares malloc counts.
private func measureAllocations(_ options: AudioBenchOptions) -> Int32 {
    let short = 2.0, long = 6.0
    guard let shortCount = valgrindAllocations(seconds: short, options),
          let longCount = valgrindAllocations(seconds: long, options) else {
        printError("Error: valgrind did not report heap usage (is valgrind installed?)")
        return 1
    }
    let extraWrites = (long - short) / (options.periodMilliseconds / 1000)
    print("audio: heap allocations (valgrind): \(shortCount) for \(fixed(short, 0)) s, \(longCount) for \(fixed(long, 0)) s of audio")
    print("audio: \(fixed(Double(longCount - shortCount) / extraWrites, 3)) allocations per write call (\(Int(extraWrites)) more write calls, \(longCount - shortCount) more allocations)")
    return longCount == shortCount ? 0 : 1
}

private func valgrindAllocations(seconds: Double, _ options: AudioBenchOptions) -> Int? {
    let report = "/tmp/wlslider-bench-valgrind-\(getpid()).txt"
    defer { unlink(report) }
    let arguments = ["valgrind", "--log-file=\(report)", CommandLine.arguments[0], "audio",
                     "--seconds", String(seconds), "--rate", String(options.rate), "--period-ms", String(options.periodMilliseconds), "--quiet"]
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let cArguments = arguments.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    guard posix_spawnp(&pid, "valgrind", &actions, nil, cArguments, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    // "total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated"
    guard let file = fopen(report, "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let range = text.firstRange(of: "total heap usage: ") else { continue }
        let count = text[range.upperBound...].prefix { $0 != " " }.filter { $0 != "," }
        return Int(count)
    }
    return nil
}

private func fixed(_ value: Double, _ decimals: Int) -> String {
    DecimalText.fixed(value, decimals: decimals)
}
