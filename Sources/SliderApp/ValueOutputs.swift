import Posix
import SliderEngine
import SliderOutput

/// Every sink of the value stream, wired into the event loop: stdout lines, OSC, the exec hook,
/// the audio-rate writer and the JACK client. Each emitted sample reaches each sink; each sink's warnings reach stderr.
///
/// Each sink's descriptor is polled for its errors as well as for room to write, and each sink
/// resolves what poll reported itself, so no error condition stays set on a polled descriptor (a
/// loop would spin on it). A sink that ends is dropped: quietly when its reader left (as
/// `yes | head` does), with one line when it failed (a full disk). When no sink is left, wlslider
/// exits: 0 when the last reader left, 1 when the last sink failed.
final class ValueOutputs {
    private let loop: EventLoop
    private let clock: AppClock
    private var formatter: LineFormatter?
    private var stdout: StdoutSink?
    private let osc: OSCSender?
    private let exec: ExecHook?
    private var audio: AudioRateWriter?
    /// `--jack` / `--midi-cc`: fed on every change of the engine, not per frame.
    private var jack: JackOutput?
    private var jackSource: EventLoop.SourceToken?
    private let model: SliderModel
    private var stdoutSource: EventLoop.SourceToken?
    private var oscSource: EventLoop.SourceToken?
    private var execSource: (fd: Descriptor, token: EventLoop.SourceToken)?
    private var audioSource: EventLoop.SourceToken?
    private lazy var audioTimer: EventLoop.Timer = loop.makeTimer { [unowned self] in self.topUpAudio() }
    /// `--audio-out -`: the samples are stdout's only content.
    private let audioOnStdout: Bool
    /// Called once when no sink is left: `.success` when the last reader left, `.failure` when the
    /// last sink failed (its line is printed already).
    var onNoSinkLeft: (ExitStatus) -> Void = { _ in }
    /// True once the last sink left has failed (wlslider then exits 1, whatever else ended it).
    private(set) var lastSinkFailed = false
    /// Sees every frame's samples as they go out (the echo rule of `ExternalTargets`).
    var onEmit: (SmallList<ValueSample>, SliderRange) -> Void = { _, _ in }

    /// How often the audio-rate stream is topped up: a value change reaches its reader at most this
    /// late, at the cost of this many wake-ups a second while `--audio-out` is on.
    static let audioPeriodMilliseconds = 5.0

    /// The sinks `options` ask for; the audio-rate one samples `model`, the JACK client follows it.
    init(options: OutputOptions, loop: EventLoop, clock: AppClock, model: SliderModel) throws(SinkSetupError) {
        self.loop = loop
        self.clock = clock
        self.model = model
        audioOnStdout = options.audioOut == .standardOutput
        if !audioOnStdout {
            formatter = LineFormatter(format: options.format)
            stdout = StdoutSink()
        }
        osc = try options.osc.map { destination throws(SinkSetupError) in
            try OSCSender(destination: destination, mapping: options.format.mapping,
                          timing: options.oscTimetags ? .timetagged(wallClockAtStart: wallClockSeconds() - clock.now()) : .immediate)
        }
        exec = options.exec.map { ExecHook(template: $0, format: options.format) }
        if let destination = options.audioOut {
            audio = try AudioRateWriter(destination: destination, sampleRate: options.rate, startTime: clock.now(),
                                        mapping: options.format.mapping, source: model)
        }
        if let jackOptions = options.jack {
            jack = try JackOutput(options: jackOptions, mapping: options.format.mapping, course: model.slider.presentation,
                                  engineNow: clock.now)
        }
        register()
    }

    /// How many sinks still take values.
    private var liveSinks: Int {
        (stdout != nil ? 1 : 0) + (osc != nil ? 1 : 0) + (exec != nil ? 1 : 0) + (audio != nil ? 1 : 0) + (jack != nil ? 1 : 0)
    }

    // MARK: Emitting

    /// Hands the samples of one frame to every sink; each maps them from `range` its own way.
    func emit(_ samples: SmallList<ValueSample>, range: SliderRange) {
        guard !samples.isEmpty else { return }
        // By index: iterating the list itself would copy it.
        for index in 0..<samples.count {
            let sample = samples[index]
            if formatter?.prepareLine(for: sample, range: range) == true, let line = formatter?.line,
               let status = stdout?.write(line) {
                resolveStdout(status)
            }
            osc?.send(sample, range: range)
            exec?.submit(sample, range: range)
        }
        onEmit(samples, range)
        afterSinkActivity()
    }

    /// A gesture took hold of the slider (true) or let go: `--osc` sends ADDRESS/touched 1 or 0.
    func touched(_ holding: Bool) {
        guard let osc else { return }
        osc.sendTouched(holding)
        afterSinkActivity()
    }

    /// After any change of the engine: the JACK client gets the new course at once (wait-free;
    /// nothing happens when the course is the same, as after a frame).
    func engineChanged() {
        jack?.publish(model.slider.presentation, engineNow: clock.now)
    }

    /// The way out: the final sample to every sink, then every sink drained within bounded waits.
    /// `now` is when the engine settled on the final value (the audio stream ends there).
    func finish(with final: ValueSample, range: SliderRange, at now: Double) {
        emit([final], range: range)
        if let jack {
            for line in jack.finish(course: model.slider.presentation, engineNow: clock.now) { report(line) }
        }
        if let status = stdout?.finish(timeoutMilliseconds: 500) { resolveStdout(status, exiting: true) }
        osc?.flush()
        exec?.finish()
        if let status = audio?.finish(at: now, timeoutMilliseconds: 500) { resolveAudio(status, exiting: true) }
        reportWarnings()
    }

    // MARK: Event loop wiring

    private func register() {
        if let fd = stdout?.pollDescriptor {
            stdoutSource = loop.addSource(fd: fd.rawValue, events: []) { [unowned self] events in
                if let status = self.stdout?.handle(events) { self.resolveStdout(status) }
                self.afterSinkActivity()
            }
        }
        if let osc {
            oscSource = loop.addSource(fd: osc.pollDescriptor.rawValue, events: []) { [unowned self] events in
                self.osc?.handle(events)
                self.afterSinkActivity()
            }
        }
        if let fd = audio?.pollDescriptor {
            audioSource = loop.addSource(fd: fd.rawValue, events: []) { [unowned self] events in
                if let status = self.audio?.handle(events, now: self.clock.now()) { self.resolveAudio(status) }
                self.afterSinkActivity()
            }
            loop.schedule(audioTimer, afterMilliseconds: Self.audioPeriodMilliseconds)
        }
        if let fd = jack?.pollDescriptor {
            jackSource = loop.addSource(fd: fd.rawValue, events: .readable) { [unowned self] _ in self.resolveJack() }
        }
    }

    /// The audio-rate stream's period: write what is due, then wait for the next one.
    private func topUpAudio() {
        if let status = audio?.write(upTo: clock.now()) { resolveAudio(status) }
        afterSinkActivity()
        if audio != nil { loop.schedule(audioTimer, afterMilliseconds: Self.audioPeriodMilliseconds) }
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
        dropExecSource()
        if let fd {
            execSource = (fd, loop.addSource(fd: fd.rawValue, events: .readable) { [unowned self] _ in
                // reap() closes the child's pidfd, and the next child's may get the same number:
                // the loop must let go of it first (it watches the open file, not the number).
                self.dropExecSource()
                self.exec?.reap()
                self.afterSinkActivity()
            })
        }
    }

    private func dropExecSource() {
        if let execSource { loop.removeSource(execSource.token) }
        execSource = nil
    }

    // MARK: Sinks that end

    private func resolveStdout(_ status: WriteStatus, exiting: Bool = false) {
        guard status.isFinal, stdout != nil else { return }
        // The source goes before the sink, which closes its descriptor.
        if let stdoutSource { loop.removeSource(stdoutSource) }
        stdoutSource = nil
        stdout = nil
        formatter = nil
        sinkEnded(status, exiting: exiting, quietWhenReaderLeft: true)
    }

    private func resolveAudio(_ status: WriteStatus, exiting: Bool = false) {
        guard status.isFinal, audio != nil else { return }
        if let audioSource { loop.removeSource(audioSource) }
        audioSource = nil
        audio = nil
        loop.cancelTimer(audioTimer)
        // stdout's reader leaving (`wlslider --audio-out - | head -c N`) is as quiet as with lines;
        // a file's or FIFO's reader leaving is worth a line.
        sinkEnded(status, exiting: exiting, quietWhenReaderLeft: audioOnStdout, readerLeftMessage:
            "--audio-out: the reader closed the stream; no more samples are written")
    }

    /// The JACK server went away: one line; the other sinks go on (exit 1 if it was the last).
    private func resolveJack() {
        guard let message = jack?.handle() else { return }
        report(message)
        if let jackSource { loop.removeSource(jackSource) }
        jackSource = nil
        jack = nil
        guard liveSinks == 0 else { return }
        lastSinkFailed = true
        onNoSinkLeft(.failure)
    }

    private func sinkEnded(_ status: WriteStatus, exiting: Bool, quietWhenReaderLeft: Bool,
                           readerLeftMessage: String = "") {
        var failed = false
        switch status {
        case .failed(let error):
            report("\(error); no more values are written there")
            failed = true
        case .readerClosed where !quietWhenReaderLeft:
            report(readerLeftMessage)
        default:
            break
        }
        guard liveSinks == 0 else { return }
        lastSinkFailed = failed
        if !exiting { onNoSinkLeft(failed ? .failure : .success) }
    }

    private func reportWarnings() {
        // After every frame: a look at each sink, and nothing more unless one has something.
        if let stdout, stdout.hasWarnings { for warning in stdout.takeWarnings() { report(warning) } }
        if let osc, osc.hasWarnings { for warning in osc.takeWarnings() { report(warning) } }
        if let exec, exec.hasWarnings { for warning in exec.takeWarnings() { report(warning) } }
        if let audio, audio.hasWarnings { for warning in audio.takeWarnings() { report(warning) } }
        if let jack, jack.hasWarnings { for warning in jack.takeWarnings() { report(warning) } }
    }
}
