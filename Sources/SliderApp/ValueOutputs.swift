#if canImport(Glibc)
import Glibc
#endif
import SliderEngine
import SliderOutput
import WaylandClient

/// Every sink of the value stream, wired into the event loop: stdout lines, OSC, the exec hook and
/// the audio-rate writer. Each emitted sample reaches each sink; each sink's warnings reach stderr.
final class ValueOutputs {
    private let loop: EventLoop
    private var formatter: LineFormatter?
    private var stdout: StdoutSink?
    private let osc: OSCSender?
    private let exec: ExecHook?
    private var audio: AudioRateWriter?
    private var stdoutSource: EventLoop.SourceToken?
    private var oscSource: EventLoop.SourceToken?
    private var execSource: (fd: Int32, token: EventLoop.SourceToken)?
    private var audioSource: EventLoop.SourceToken?
    private var audioTimer: EventLoop.TimerToken?
    /// `--audio-out -`: the samples are stdout's only content.
    private let audioOnStdout: Bool
    /// The current range, for percentages and output scaling (stdin may change it live).
    var range: () -> SliderRange = { SliderRange(min: 0, max: 100) }
    /// Called when the reader of stdout went away and no other sink is left: exit quietly.
    var onNothingLeftToFeed: () -> Void = {}

    /// How often the audio-rate stream is topped up: a value change reaches its reader at most this
    /// late, at the cost of this many wake-ups a second while `--audio-out` is on.
    static let audioPeriodMilliseconds = 5.0

    init(options: OutputOptions, loop: EventLoop, clock: AppClock,
         fill: @escaping AudioRateWriter.Fill) throws(SinkSetupError) {
        self.loop = loop
        audioOnStdout = options.audioOut == .standardOutput
        if !audioOnStdout {
            formatter = LineFormatter(format: options.format)
            stdout = StdoutSink()
        }
        osc = try options.osc.map { destination throws(SinkSetupError) in
            try OSCSender(destination: destination, mapping: options.format.mapping,
                          timing: options.oscTimetags ? .timetagged(wallClockAtStart: Self.wallClock() - clock.now()) : .immediate)
        }
        exec = options.exec.map { ExecHook(template: $0, format: options.format) }
        if let destination = options.audioOut {
            audio = try AudioRateWriter(destination: destination, sampleRate: options.rate,
                                        startTime: clock.now(), fill: fill)
        }
        register(clock: clock)
    }

    /// True when some sink other than stdout lines is active.
    private var hasOtherSinks: Bool { osc != nil || exec != nil || audio != nil }

    // MARK: Emitting

    /// Hands the samples of one frame to every sink.
    func emit(_ samples: [ValueSample]) {
        guard !samples.isEmpty else { return }
        let range = range()
        for sample in samples {
            if var f = formatter, let line = f.line(for: sample, range: range) {
                formatter = f
                handle(stdout?.write(line))
            }
            osc?.send(sample, range: range)
            exec?.submit(sample, range: range)
        }
        afterSinkActivity()
    }

    /// The shutdown path: the final sample first, then every sink drained within bounded waits.
    func finish(with final: ValueSample, at now: Double) {
        emit([final])
        _ = stdout?.finish(timeoutMilliseconds: 500)
        osc?.flush()
        _ = exec?.finish(timeoutMilliseconds: 2000)
        _ = audio?.finish(at: now, timeoutMilliseconds: 500)
        reportWarnings()
    }

    // MARK: Event loop wiring

    private func register(clock: AppClock) {
        if let stdout {
            stdoutSource = loop.addSource(fd: stdout.fileDescriptor, events: []) { [weak self] _ in
                guard let self else { return }
                self.handle(self.stdout?.flush())
                self.afterSinkActivity()
            }
        }
        if let osc {
            oscSource = loop.addSource(fd: osc.fileDescriptor, events: []) { [weak self] _ in
                self?.osc?.flush()
                self?.afterSinkActivity()
            }
        }
        if let audio {
            audioSource = loop.addSource(fd: audio.fileDescriptor, events: []) { [weak self] _ in
                self?.topUpAudio(clock: clock)
            }
            scheduleAudio(clock: clock)
        }
    }

    private func scheduleAudio(clock: AppClock) {
        audioTimer = loop.addTimer(at: MonotonicInstant.now().advanced(byMilliseconds: Self.audioPeriodMilliseconds)) { [weak self] in
            guard let self else { return }
            self.topUpAudio(clock: clock)
            if self.audio != nil { self.scheduleAudio(clock: clock) }
        }
    }

    private func topUpAudio(clock: AppClock) {
        guard let audio else { return }
        if audio.write(upTo: clock.now()) == .readerClosed {
            self.audio = nil
            if let audioSource { loop.removeSource(audioSource) }
            audioSource = nil
            if audioOnStdout {
                // stdout's reader went away (`wlslider --audio-out - | head -c N`): as with value
                // lines, end quietly unless another sink still has someone to feed.
                if osc == nil && exec == nil { onNothingLeftToFeed() }
            } else {
                report("--audio-out: the reader closed the stream; no more samples are written")
            }
        }
        afterSinkActivity()
    }

    /// Re-arms POLLOUT where a sink has bytes waiting, follows the exec hook's child, prints warnings.
    private func afterSinkActivity() {
        if let stdoutSource { loop.setEvents(stdout?.wantsWritable == true ? .writable : [], for: stdoutSource) }
        if let oscSource { loop.setEvents(osc?.wantsWritable == true ? .writable : [], for: oscSource) }
        if let audioSource { loop.setEvents(audio?.wantsWritable == true ? .writable : [], for: audioSource) }
        followExecChild()
        reportWarnings()
    }

    private func followExecChild() {
        let fd = exec?.pollDescriptor
        guard fd != execSource?.fd else { return }
        if let execSource { loop.removeSource(execSource.token) }
        execSource = nil
        if let fd {
            execSource = (fd, loop.addSource(fd: fd, events: .readable) { [weak self] _ in
                self?.exec?.reap()
                self?.afterSinkActivity()
            })
        }
    }

    private func handle(_ status: WriteStatus?) {
        guard status == .readerClosed, stdout != nil else { return }
        // The reader of stdout went away (EPIPE): stop writing lines; with nothing else to feed,
        // end quietly, as `yes | head` does.
        stdout = nil
        formatter = nil
        if let stdoutSource { loop.removeSource(stdoutSource) }
        stdoutSource = nil
        if !hasOtherSinks { onNothingLeftToFeed() }
    }

    private func reportWarnings() {
        for warning in (stdout?.takeWarnings() ?? []) + (osc?.takeWarnings() ?? []) +
            (exec?.takeWarnings() ?? []) + (audio?.takeWarnings() ?? []) {
            report(warning)
        }
    }

    private static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
