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
    private let childStdout: Int32
    private var child: (pid: Int32, pidfd: Int32?)?
    /// The pid of the most recently started child (tests check it was reaped).
    private(set) var lastPID: Int32?
    private var lastStarted: [String]?
    private var pending: [String]?
    private var warnings = WarningLog()

    /// Creates a hook. `{value}` is formatted like the stdout lines (`format`'s mapping and precision),
    /// `{percent}` is the position in the slider's range, 0…100 with the same precision, `{phase}` the
    /// phase name. Children write their stdout to `childStdout` (our stderr by default).
    public init(template: ExecTemplate, format: OutputFormat = .standard, childStdout: Int32 = 2) {
        self.template = template
        self.format = format
        self.childStdout = childStdout
    }

    deinit {
        if let pidfd = child?.pidfd { Sys.close(pidfd) }
    }

    /// True while a child runs.
    public var isRunning: Bool { child != nil }

    /// True when a value waits for the running child to exit.
    public var hasPending: Bool { pending != nil }

    /// A pidfd of the running child to poll for POLLIN, or nil when no child runs (or pidfds are unavailable).
    public var pollDescriptor: Int32? { child?.pidfd }

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
        switch Sys.reap(running.pid) {
        case .success(nil):
            return
        case .success(let exit?):
            report(exit)
        case .failure(let error):
            // ECHILD: someone else reaped it (e.g. the app's SIGCHLD handler with waitpid(-1)).
            warnings.once(key: "waitpid \(error.code)", "exec hook: " + error.error("waitpid \(running.pid)").description)
        }
        if let pidfd = running.pidfd { Sys.close(pidfd) }
        child = nil
        if let next = pending {
            pending = nil
            // The child that just ran may already have had the newest argv (A, then B, then A again).
            if next != lastStarted { start(next) }
        }
    }

    /// The shutdown path: waits up to `timeoutMilliseconds` for the running child, runs the pending
    /// value and waits for it too (each wait bounded separately). Returns true when every submitted
    /// value has been run and reaped; false leaves a warning naming what was not waited for.
    @discardableResult
    public func finish(timeoutMilliseconds: Int32 = 2000) -> Bool {
        while let running = child {
            waitForExit(running, timeoutMilliseconds: timeoutMilliseconds)
            if child?.pid == running.pid {
                warnings.once(key: "finish", "exec hook: \"\(template.arguments[0])\" still running after \(timeoutMilliseconds) ms at exit; not waiting for it"
                              + (pending != nil ? " (the last value was not run)" : ""))
                return false
            }
        }
        return true
    }

    /// Warnings (one line each) since the last call; print them on stderr.
    public func takeWarnings() -> [String] { warnings.take() }

    private func start(_ arguments: [String]) {
        lastStarted = arguments
        switch Sys.spawn(arguments, stdoutFD: childStdout) {
        case .success(let pid):
            child = (pid, Sys.pidfdOpen(pid))
            lastPID = pid
        case .failure(let error):
            warnings.once(key: "spawn \(error.code)", "exec hook: " + error.error("cannot run \"\(arguments[0])\"").description)
        }
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

    /// Waits until `running` has been reaped by `reap()` or the timeout passed.
    private func waitForExit(_ running: (pid: Int32, pidfd: Int32?), timeoutMilliseconds: Int32) {
        if let pidfd = running.pidfd {
            _ = Sys.poll(pidfd, events: Sys.readableEvent, timeoutMilliseconds: timeoutMilliseconds)
            reap()
            return
        }
        // No pidfd (kernel < 5.3): look every 10 ms.
        var waited: Int32 = 0
        while true {
            reap()
            if child?.pid != running.pid || waited >= timeoutMilliseconds { return }
            Sys.pause(milliseconds: 10)
            waited += 10
        }
    }
}
