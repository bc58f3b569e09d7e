import Posix

/// The exec hook: runs the `--exec` template for emitted values, at most one child at a time.
///
/// - No shell: argv is spawned directly (posix_spawnp), stdin from /dev/null, stdout onto our stderr
///   (so a chatty command never corrupts the value stream on stdout), other descriptors closed,
///   signal mask and SIGPIPE/SIGINT/SIGTERM/SIGCHLD dispositions reset to default.
/// - Coalescing: while a child runs, newer values replace each other as the one pending run; when
///   the child exits the newest pending value runs. A run identical to the previous argv is skipped.
///   So a slow `wpctl` never queues up, and the last value is always the last one run.
/// - Reaping: only our own child's pid is waited for (never `waitpid(-1)`), so other parts of the
///   app may own children too.
/// - Failures (cannot exec, non-zero exit, killed by a signal): one warning per distinct failure.
///
/// Wiring: after `submit` and after each `reap`, (re)read `pollDescriptor`: while it is non-nil,
/// poll it for POLLIN (a pidfd: readable once the child has exited) and call `reap()` when it fires.
/// Without pidfd support (`pollDescriptor` nil while `isRunning`), call `reap()` on SIGCHLD.
/// On exit call `finish(timeoutMilliseconds:)`.
public final class ExecHook {
    /// The argv template.
    public let template: ExecTemplate
    private let format: OutputFormat
    private let childStdout: Descriptor
    private var child: Running?
    /// The pid of the most recently started child (tests check it was reaped).
    private(set) var lastPID: Int32?
    private var lastStarted: [String]?
    private var pending: [String]?
    private var warnings = WarningLog()

    /// A child that runs, owned with its pidfd.
    private final class Running {
        let process: ChildProcess
        init(_ process: consuming ChildProcess) { self.process = process }
    }

    /// How long the shutdown path waits for a running child, and then again for the final value's.
    public static let finishTimeoutMilliseconds: Int32 = 5000

    /// Creates a hook. `{value}` is formatted like the stdout lines (`format`'s mapping and precision),
    /// `{percent}` is the position in the slider's range, 0…100 with the same precision, `{phase}` the
    /// phase name. Children write their stdout to `childStdout` (our stderr by default).
    public init(template: ExecTemplate, format: OutputFormat = .standard, childStdout: Int32 = 2) {
        self.template = template
        self.format = format
        self.childStdout = Descriptor(childStdout)
    }

    /// True while a child runs.
    public var isRunning: Bool { child != nil }

    /// True when a value waits for the running child to exit.
    public var hasPending: Bool { pending != nil }

    /// A pidfd of the running child to poll for POLLIN, or nil when no child runs (or pidfds are unavailable).
    public var pollDescriptor: Descriptor? { child?.process.exitDescriptor }

    /// Runs the template for `sample` now, or makes it the pending run if a child is still running.
    public func submit(_ sample: ValueSample, range: SliderRange) {
        let percent = DecimalText.fixed(OutputMapping.percent(sample.value, range: range), decimals: format.precision)
        submit(arguments: template.expand(value: format.valueText(sample.value, range: range),
                                          percent: percent, phase: sample.phase.rawValue))
    }

    /// Runs (or queues) an already expanded argv. Internal so tests can pass arbitrary texts.
    func submit(arguments: [String]) {
        if arguments == (pending ?? lastStarted) { return }
        if child != nil {
            pending = arguments
        } else {
            pending = nil
            start(arguments)
        }
    }

    /// Collects the child if it has exited, reports a failure, and starts the pending run.
    /// Non-blocking; harmless to call when nothing has happened.
    public func reap() {
        guard let running = child else { return }
        do throws(Errno) {
            guard let exit = try running.process.reap() else { return }
            report(exit)
        } catch {
            // ECHILD: someone else reaped it (e.g. an app SIGCHLD handler with waitpid(-1)).
            warnings.once(key: "waitpid \(error.code)", "exec hook: " + error.error("waitpid \(running.process.pid)").description)
        }
        child = nil
        startPending()
    }

    /// The shutdown path: waits up to `timeoutMilliseconds` for the running child, then runs the
    /// pending (final) value and waits for it as long again. A child still running after its wait
    /// is left alone with a warning; the final value runs even then, so it is never lost to a slow
    /// command. Returns true when every submitted value has been run and reaped.
    @discardableResult
    public func finish(timeoutMilliseconds: Int32 = finishTimeoutMilliseconds) -> Bool {
        var complete = waitForChild(timeoutMilliseconds: timeoutMilliseconds,
                                    stillRunning: pending != nil ? "the last value runs without waiting for it" : "not waiting for it")
        // Still running: stop following it; the final value runs anyway.
        child = nil
        if startPending() {
            complete = waitForChild(timeoutMilliseconds: timeoutMilliseconds,
                                    stillRunning: "not waiting for the run of the last value") && complete
        }
        return complete
    }

    /// Warnings (one line each) since the last call; print them on stderr.
    public func takeWarnings() -> [String] { warnings.take() }
    /// Whether `takeWarnings` has any to hand over (a cheap look, once a frame).
    public var hasWarnings: Bool { warnings.hasQueued }

    /// Starts the pending run, if any: true when a child was started.
    @discardableResult
    private func startPending() -> Bool {
        guard let next = pending else { return false }
        pending = nil
        // The child that just ran may already have had the newest argv (A, then B, then A again).
        guard next != lastStarted else { return false }
        start(next)
        return child != nil
    }

    private func start(_ arguments: [String]) {
        lastStarted = arguments
        do throws(Errno) {
            let process = try ChildProcess(spawning: arguments, standardOutput: childStdout)
            lastPID = process.pid
            child = Running(process)
        } catch {
            warnings.once(key: "spawn \(error.code)", "exec hook: " + error.error("cannot run \"\(arguments[0])\"").description)
        }
    }

    /// Waits (bounded) for the running child and collects it; false when it is still running.
    private func waitForChild(timeoutMilliseconds: Int32, stillRunning: String) -> Bool {
        guard let running = child else { return true }
        do throws(Errno) {
            guard let exit = try running.process.wait(timeoutMilliseconds: timeoutMilliseconds) else {
                warnings.once(key: "finish \(running.process.pid)",
                              "exec hook: \"\(template.arguments[0])\" still running after \(timeoutMilliseconds) ms at exit; \(stillRunning)")
                return false
            }
            report(exit)
        } catch {
            warnings.once(key: "waitpid \(error.code)", "exec hook: " + error.error("waitpid \(running.process.pid)").description)
        }
        child = nil
        return true
    }

    private func report(_ exit: ChildExit) {
        let program = template.arguments[0]
        switch exit {
        case .exited(0):
            return
        case .exited(let status):
            warnings.once(key: "exit \(status)", "exec hook: \"\(program)\" exited with status \(status) (reported once per status)")
        case .signalled(let signal):
            warnings.once(key: "signal \(signal)", "exec hook: \"\(program)\" was killed by signal \(signal) (reported once per signal)")
        }
    }
}
