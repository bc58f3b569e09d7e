import SliderEngine
import SliderOutput
import Posix

/// Commands read from stdin, one per line: a number sets the target, `+N`/`-N` move it, `min X`,
/// `max X` and `step X` change the range live, `quit` exits. A bad line is reported once on stderr
/// and changes nothing. The end of input, or a read error (reported), stops reading; with
/// `--exit-on-eof` either one ends wlslider. Targets go through `ExternalTargets`: they wait while
/// a finger holds the slider and for the settle window after it.
final class StdinControl {
    private let reader = LineReader(fileDescriptor: Descriptor.standardInput.rawValue)
    private let loop: EventLoop
    private let controller: SliderController
    private let targets: ExternalTargets
    private let exitOnEOF: Bool
    private var source: EventLoop.SourceToken?
    /// Called for `quit`, and at the end of input with `--exit-on-eof`.
    var onQuit: () -> Void = {}

    init(loop: EventLoop, controller: SliderController, targets: ExternalTargets, exitOnEOF: Bool) {
        self.loop = loop
        self.controller = controller
        self.targets = targets
        self.exitOnEOF = exitOnEOF
        source = loop.addSource(fd: reader.descriptor.rawValue, events: .readable) { [weak self] _ in self?.readAvailable() }
    }

    private func readAvailable() {
        let events: [LineEvent]
        do {
            events = try reader.read()
        } catch {
            report("stdin: \(error); no longer reading commands")
            endOfInput()
            return
        }
        for event in events {
            switch event {
            case .line(let text): run(text)
            case .overlong(let prefix): report(StdinCommandError.overlong(prefix: prefix, limit: reader.maxLineLength).description)
            case .endOfFile: endOfInput()
            }
        }
    }

    private func endOfInput() {
        stop()
        if exitOnEOF { onQuit() }
    }

    private func run(_ line: String) {
        switch StdinCommandParser.parse(line) {
        case .failure(let error):
            report(error.description)
        case .success(nil):
            break
        case .success(.quit):
            onQuit()
        case .success(.setTarget(let v)?):
            targets.submit(.absolute(v), from: .stdin)
        case .success(.adjustTarget(let d)?):
            targets.submit(.relative(d), from: .stdin)
        case .success(let command?):
            do {
                try controller.update { slider, t throws(SliderError) in try Self.apply(command, to: &slider, at: t) }
            } catch {
                report(StdinCommandError(line: line, reason: error.description).description)
            }
        }
    }

    private static func apply(_ command: StdinCommand, to slider: inout Slider, at t: Double) throws(SliderError) {
        let c = slider.configuration
        switch command {
        case .setTarget(let v): try slider.setTarget(v, at: t)
        case .adjustTarget(let d): try slider.moveTarget(by: d, at: t)
        case .setMinimum(let v): try slider.setRange(minimum: v, maximum: c.maximum, at: t)
        case .setMaximum(let v): try slider.setRange(minimum: c.minimum, maximum: v, at: t)
        case .setStep(let s): try slider.setStep(s, at: t)
        case .quit: break
        }
    }

    /// Stops reading (end of input or an error); the slider goes on.
    func stop() {
        if let source { loop.removeSource(source) }
        source = nil
    }
}
