// `wlslider-bench jack`: what the JACK process callback costs (issue 11).
//
//   cost         SliderOutput's JackRenderer, the function the process callback runs, called for
//                --periods periods of --frames frames at 48 kHz in simulated time, with the value
//                port and 14-bit MIDI, while the value glides back and forth across the range
//                (jump glides, ease-in 0.25 s, each published the moment the last one ends):
//                CPU µs per period, mean and worst.
//   --allocations  runs the cost measurement under valgrind for N and 3N periods: the difference
//                in heap allocations is the callback's (0 expected); exits 1 otherwise.
//   --xruns S    a real jackd (dummy backend, 48 kHz, 256 frames; --realtime for SCHED_FIFO) and
//                wlslider's own JACK client in this process, back-to-back glides for S seconds:
//                the xruns jackd blames on the client ("client = NAME was not finished", "client
//                NAME finished after current callback"; those right after jackd's own driver woke
//                a period late are the machine's, counted apart) and all xruns it reported to the
//                client.
import Glibc
import SliderEngine
import SliderOutput

let jackBenchCommand = BenchCommand(
    name: "jack",
    summary: "The JACK process callback's CPU per period and heap allocations (--allocations), and xruns over a run of back-to-back glides against jackd (--xruns S).",
    run: runJackBench
)

private let jackHelp = """
    Usage: wlslider-bench jack [--periods N] [--frames F] [--allocations] [--xruns SECONDS [--realtime]] [--quiet]
      --periods N     Periods to render for the cost (default 100000).
      --frames F      Frames per period (default 256).
      --allocations   Run under valgrind for N/4 and 3N/4 periods; print heap allocations per period;
                      exit 1 unless there are none.
      --xruns S       Run the JACK client against a private jackd (dummy backend, 48 kHz, F frames)
                      for S seconds of back-to-back glides; print the xruns. Needs jackd (jackd2).
      --realtime      With --xruns: jackd -R -P 70 (SCHED_FIFO; root or rtprio needed) instead of
                      --no-realtime.
      --quiet         Measure but print nothing (used by --allocations).
    """

private struct JackBenchOptions {
    var periods = 100_000
    var frames = 256
    var allocations = false
    var xrunSeconds: Double?
    var realtime = false
    var quiet = false
}

private func runJackBench(_ arguments: [String]) -> Int32 {
    var options = JackBenchOptions()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--help": print(jackHelp); return 0
        case "--allocations": options.allocations = true
        case "--realtime": options.realtime = true
        case "--quiet": options.quiet = true
        case "--periods", "--frames", "--xruns":
            guard let text = rest.popFirst(), let number = Double(text), number > 0, number.isFinite else {
                return usageError("\(flag) needs a positive number", help: jackHelp)
            }
            if flag == "--periods" { options.periods = Int(number) }
            if flag == "--frames" { options.frames = Int(number) }
            if flag == "--xruns" { options.xrunSeconds = number }
        default: return usageError("unknown option '\(flag)'", help: jackHelp)
        }
    }
    if let seconds = options.xrunSeconds { return measureXruns(seconds: seconds, options) }
    return options.allocations ? measureCallbackAllocations(options) : measureCallbackCost(options)
}

/// Counts MIDI events instead of writing them into a JACK buffer.
nonisolated(unsafe) private var midiEvents = 0
private let countingWrite: MIDIEventBuffer.Write = { _, _, _, _ in
    midiEvents += 1
    return true
}

/// Glides 0 ↔ 100 back to back: a new course each time the last one has ended.
private struct BackToBack {
    var slider = try! Slider(configuration: SliderConfiguration(), value: 0, at: 0)
    var generation: UInt64 = 1

    /// The next course when the glide has ended at `t`.
    mutating func next(at t: Double) -> PresentedValue? {
        guard !slider.isAnimating(at: t) else { return nil }
        try? slider.setTarget(slider.target == 0 ? 100 : 0, at: t)
        generation += 1
        return slider.presentation
    }
}

private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

private func measureCallbackCost(_ options: JackBenchOptions) -> Int32 {
    let rate = 48_000.0, frames = options.frames
    var glides = BackToBack()
    let feed = JackFeed(course: glides.slider.presentation, jackMicroseconds: 0, engineTime: 0, generation: 1)
    let renderer = JackRenderer(initial: feed, mapping: OutputMapping(scale: OutputScale(lower: 0, upper: 1), curve: .linear),
                                control: MIDIControl(controller: 1, channel: 1, fourteenBit: true))
    let audio = UnsafeMutablePointer<Float>.allocate(capacity: frames)
    defer { audio.deallocate() }
    var midiStorage: UInt8 = 0
    var total = 0.0, worst = 0.0
    withUnsafeMutableBytes(of: &midiStorage) { midi in
        for index in 0..<options.periods {
            // JACK's clock in µs is engine time here: period i starts at i·F/rate (+ one period,
            // which the renderer takes off).
            let start = Double(index) * Double(frames) / rate
            if let course = glides.next(at: start) {
                renderer.exchange.publish(JackFeed(course: course, jackMicroseconds: 0, engineTime: 0, generation: glides.generation))
            }
            let period = JackPeriod(frames: frames, sampleRate: rate, firstFrame: UInt32(truncatingIfNeeded: index * frames),
                                    microseconds: UInt64(((start + Double(frames) / rate) * 1e6).rounded()), audio: audio,
                                    midi: MIDIEventBuffer(buffer: midi.baseAddress!, write: countingWrite))
            let before = threadCPUSeconds()
            renderer.render(period)
            let spent = threadCPUSeconds() - before
            total += spent
            worst = max(worst, spent)
        }
    }
    guard !options.quiet else { return 0 }
    let seconds = Double(options.periods * frames) / rate
    print("jack callback: \(options.periods) periods of \(frames) frames at 48 kHz (\(fixed(seconds, 0)) s of glides back to back, value port + 14-bit MIDI, \(midiEvents) MIDI events)")
    print("jack callback: \(fixed(total / Double(options.periods) * 1e6, 2)) µs per period on average, \(fixed(worst * 1e6, 1)) µs at worst; "
        + "\(fixed(total / seconds * 100, 3)) % of one core")
    return 0
}

private func measureCallbackAllocations(_ options: JackBenchOptions) -> Int32 {
    let short = max(options.periods / 4, 1000), long = 3 * short
    guard let shortCount = valgrindCount(periods: short, options), let longCount = valgrindCount(periods: long, options) else {
        printError("Error: valgrind did not report heap usage (is valgrind installed?)")
        return 1
    }
    print("jack callback: heap allocations (valgrind): \(shortCount) for \(short) periods, \(longCount) for \(long) periods")
    print("jack callback: \(fixed(Double(longCount - shortCount) / Double(long - short), 3)) allocations per period")
    return longCount == shortCount ? 0 : 1
}

private func valgrindCount(periods: Int, _ options: JackBenchOptions) -> Int? {
    var link = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &link, link.count - 1)
    guard length > 0 else { return nil }
    let me = String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let copy = "/tmp/wlslider-bench-jack-\(getpid())"
    let binary = runQuietly(["strip", "--strip-debug", "-o", copy, me]) == 0 ? copy : me
    defer { if binary == copy { unlink(copy) } }
    let report = "/tmp/wlslider-bench-jack-valgrind-\(getpid()).txt"
    defer { unlink(report) }
    guard runQuietly(["valgrind", "--log-file=\(report)", binary, "jack", "--periods", String(periods),
                      "--frames", String(options.frames), "--quiet"]) == 0,
          let text = readTextFile(report), let range = text.firstRange(of: "total heap usage: ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0 != " " }.filter { $0 != "," })
}

private func measureXruns(seconds: Double, _ options: JackBenchOptions) -> Int32 {
    let name = "wlslider-bench-\(getpid() % 1000)"
    let log = "/tmp/\(name).log"
    defer { unlink(log) }
    let scheduling = options.realtime ? ["-R", "-P", "70"] : ["--no-realtime"]
    let server: MeasuredProcess
    do {
        server = try MeasuredProcess(["jackd", "-n", name] + scheduling + ["-d", "dummy", "-r", "48000", "-p", String(options.frames)],
                                     stderrPath: log)
    } catch {
        printError("Error: \(error)")
        return 1
    }
    defer { server.signal(SIGTERM); _ = server.wait(timeout: 10) }
    setenv("JACK_DEFAULT_SERVER", name, 1)
    setenv("JACK_NO_START_SERVER", "1", 1)
    var glides = BackToBack()
    var output: JackOutput?
    for _ in 0..<100 where output == nil {
        sleepSeconds(0.05)
        output = try? JackOutput(options: .init(name: "wlslider", audio: true, midi: MIDIControl(controller: 1, fourteenBit: true)),
                                 mapping: .identity, course: glides.slider.presentation, engineNow: monotonicSeconds)
    }
    guard let output else {
        printError("Error: could not open a client on jackd \(name):\n\(readTextFile(log) ?? "")")
        return 1
    }
    let start = monotonicSeconds()
    glides.slider = try! Slider(configuration: SliderConfiguration(), value: 0, at: start)
    var count = 0
    while monotonicSeconds() < start + seconds {
        if let course = glides.next(at: monotonicSeconds()) {
            output.publish(course, engineNow: monotonicSeconds)
            count += 1
        }
        sleepSeconds(0.001)
    }
    let reported = output.xrunCount, periods = output.periodsRendered
    _ = output.finish(course: glides.slider.presentation, engineNow: monotonicSeconds)
    // jack2 blames a late client in one of two ways: unfinished at the next cycle, or finished
    // after it began. Right after its own driver thread woke more than a period late
    // ("JackTimedDriver::Process XRun"), a cycle begins at once and cuts the client's period
    // short: those are the machine's and are counted apart.
    var blamed = 0, excused = 0, driverLate = false
    for line in (readTextFile(log) ?? "").split(separator: "\n") {
        if line.contains("JackTimedDriver::Process XRun") { driverLate = true; continue }
        if line.contains("JackEngine::XRun: client") {
            if line.contains("client = wlslider was not finished") || line.contains("client wlslider finished after") {
                if driverLate { excused += 1 } else { blamed += 1 }
            }
            continue
        }
        driverLate = false
    }
    print("jack xruns: \(fixed(seconds, 0)) s, \(count) glides back to back, \(periods) periods of \(options.frames) frames, jackd \(options.realtime ? "-R" : "--no-realtime")")
    print("jack xruns: \(blamed) with wlslider's callback unfinished (jackd's log; \(excused) more right after jackd's driver woke a period late); "
        + "\(reported) reported to the client in all (any client's)")
    return blamed == 0 ? 0 : 1
}
