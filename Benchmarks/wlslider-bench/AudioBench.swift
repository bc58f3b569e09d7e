// `wlslider-bench audio`: the cost of producing audio-rate output (f32le mono), as the app does it:
// SliderOutput's AudioRateWriter writes into /dev/null and asks SliderEngine's
// `Slider.fill(_:from:sampleRate:)` for every block, in simulated time (no sleeping): the writer
// is called every --period-ms of simulated time, exactly as the app's timer would.
//
// --motion glide: jump glides back and forth across the whole range (0 ↔ 100, the default
//                 ease-in curve over the default 0.25 s), each started at the first write call
//                 after the previous one ended, so ~96 % of the samples pay for solving the
//                 timing curve (the rest is the tail of a block after a glide's end);
// --motion spring: the same with `--glide spring`;
// --motion rest:  the value stands still (what a stream costs between gestures).
// With --allocations the command re-runs itself under valgrind for two durations and prints the
// difference in heap allocations per block: 0 means the hot path does not allocate.
import Glibc
import SliderEngine
import SliderOutput

let audioBenchCommand = BenchCommand(
    name: "audio",
    summary: "Produces audio-rate output from the slider engine into /dev/null and prints its cost per second of audio (--allocations: heap allocations per block under valgrind).",
    run: runAudioBench
)

private let audioHelp = """
    Usage: wlslider-bench audio [--motion glide|spring|rest] [--seconds S] [--rate HZ] [--period-ms P] [--allocations] [--quiet]
      --motion M      What the value does: glide (jump glides 0 ↔ 100 back to back, the default),
                      spring (the same with the spring glide) or rest (standing still).
      --seconds S     Seconds of audio to produce per repetition (default 20).
      --repeat N      Repetitions; the fastest is reported, as the one least disturbed by other
                      work on the machine (default 5).
      --rate HZ       Sample rate (default 48000).
      --period-ms P   Simulated timer period between write calls (default 10).
      --allocations   Run under valgrind for 2 s and 6 s of audio and print heap allocations per block;
                      exits 1 unless both runs allocate exactly as often.
      --quiet         Measure but print nothing (used by --allocations).
    """

private enum Motion: String {
    case glide, spring, rest
}

private struct AudioBenchOptions {
    var motion = Motion.glide
    var seconds = 20.0
    var repetitions = 5
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
            guard let text = rest.popFirst() else { return (nil, "\(flag) needs a value") }
            if flag == "--motion" {
                guard let motion = Motion(rawValue: text) else { return (nil, "--motion wants glide, spring or rest, got '\(text)'") }
                options.motion = motion
                continue
            }
            guard let number = Double(text), number > 0, number.isFinite else { return (nil, "\(flag) needs a positive number, got '\(text)'") }
            switch flag {
            case "--seconds": options.seconds = number
            case "--repeat": options.repetitions = Int(number)
            case "--rate": options.rate = Int(number)
            case "--period-ms": options.periodMilliseconds = number
            default: return (nil, "unknown option '\(flag)'")
            }
        }
        return (options, nil)
    }
}

/// The engine as the app holds it (the writer's value source), plus the CPU time spent inside
/// `fill`, to tell the engine's share from the writer's.
private final class EngineSource: ValueSource {
    var slider: Slider
    var fillSeconds = 0.0
    private let motion: Motion

    init(motion: Motion) throws(SliderError) {
        var configuration = SliderConfiguration()
        configuration.glide = motion == .spring ? .spring : .curve
        slider = try Slider(configuration: configuration, value: 0, at: 0)
        self.motion = motion
    }

    /// Before each write call: once the running glide has ended, start the next one across the
    /// range, so glides follow each other back to back.
    func advance(to t: Double) {
        guard motion != .rest, !slider.isAnimating(at: t) else { return }
        try? slider.setTarget(slider.target == 0 ? 100 : 0, at: t)
    }

    var range: SliderRange { SliderRange(min: slider.configuration.minimum, max: slider.configuration.maximum) }

    func fill(_ samples: inout MutableSpan<Float>, from start: Double, sampleRate rate: Double) {
        let before = processCPUSeconds()
        slider.fill(&samples, from: start, sampleRate: rate)
        fillSeconds += processCPUSeconds() - before
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
    var best: (cpu: Double, fill: Double, samples: Int64)?
    for _ in 0..<max(options.repetitions, 1) {
        guard let run = produce(options) else { return 1 }
        if best == nil || run.cpu < best!.cpu { best = run }
    }
    // Under --allocations the runs print nothing: number texts of varying length would allocate
    // differently and blur the count.
    guard !options.quiet, let best else { return 0 }
    let samples = Double(best.samples)
    let label = "audio \(options.motion.rawValue)"
    print("\(label): \(fixed(options.seconds, 1)) s at \(options.rate) Hz (\(best.samples) samples in writes of \(fixed(options.periodMilliseconds, 1)) ms), fastest of \(options.repetitions)")
    print("\(label): \(fixed(best.cpu / options.seconds * 1000, 3)) ms CPU per second of audio = \(fixed(options.seconds / best.cpu, 0))× real time; "
        + "\(fixed(best.cpu / samples * 1e9, 1)) ns per sample (\(fixed(best.fill / samples * 1e9, 1)) ns in Slider.fill)")
    return 0
}

/// Produces `options.seconds` of audio once; the CPU seconds it took in all and inside `fill`.
private func produce(_ options: AudioBenchOptions) -> (cpu: Double, fill: Double, samples: Int64)? {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(null) }
    let source: EngineSource
    let writer: AudioRateWriter
    do {
        source = try EngineSource(motion: options.motion)
        writer = try AudioRateWriter(destination: .fileDescriptor(null), sampleRate: options.rate, startTime: 0, source: source)
    } catch {
        printError("Error: \(error)")
        return nil
    }
    let period = options.periodMilliseconds / 1000
    let calls = Int((options.seconds / period).rounded(.up))
    let before = processCPUSeconds()
    for call in 1...calls {
        let now = min(Double(call) * period, options.seconds)
        source.advance(to: now - period)
        _ = writer.write(upTo: now)
    }
    return (processCPUSeconds() - before, source.fillSeconds, writer.framesWritten)
}

/// Runs this binary under valgrind twice (2 s and 6 s of audio) and compares malloc counts.
private func measureAllocations(_ options: AudioBenchOptions) -> Int32 {
    let short = 2.0, long = 6.0
    let binary = debugInfoFreeCopy()
    defer { if binary.isCopy { unlink(binary.path) } }
    guard let shortCount = valgrindAllocations(binary.path, seconds: short, options),
          let longCount = valgrindAllocations(binary.path, seconds: long, options) else {
        printError("Error: valgrind did not report heap usage (is valgrind installed?)")
        return 1
    }
    let extraWrites = (long - short) / (options.periodMilliseconds / 1000)
    let label = "audio \(options.motion.rawValue)"
    print("\(label): heap allocations (valgrind): \(shortCount) for \(fixed(short, 0)) s, \(longCount) for \(fixed(long, 0)) s of audio")
    print("\(label): \(fixed(Double(longCount - shortCount) / extraWrites, 3)) allocations per write call (\(Int(extraWrites)) more write calls, \(longCount - shortCount) more allocations)")
    return longCount == shortCount ? 0 : 1
}

/// This binary without its debug information, for valgrind: valgrind 3.19 (Debian 12) gives up
/// on the DWARF 5 that clang writes for the package's C targets. Symbols stay, which is all
/// valgrind needs here. Falls back to the binary itself when `strip` fails.
private func debugInfoFreeCopy() -> (path: String, isCopy: Bool) {
    var link = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &link, link.count - 1)
    let me = length > 0 ? String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    let copy = "/tmp/wlslider-bench-\(getpid())-stripped"
    guard runQuietly(["strip", "--strip-debug", "-o", copy, me]) == 0 else { return (me, false) }
    return (copy, true)
}

private func valgrindAllocations(_ binary: String, seconds: Double, _ options: AudioBenchOptions) -> Int? {
    let report = "/tmp/wlslider-bench-valgrind-\(getpid()).txt"
    defer { unlink(report) }
    let arguments = ["valgrind", "--log-file=\(report)", binary, "audio", "--motion", options.motion.rawValue,
                     "--seconds", String(seconds), "--repeat", "1", "--rate", String(options.rate), "--period-ms", String(options.periodMilliseconds), "--quiet"]
    guard let status = runQuietly(arguments), status == 0 else { return nil }
    // "total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated"
    guard let text = readTextFile(report), let range = text.firstRange(of: "total heap usage: ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0 != " " }.filter { $0 != "," })
}
