import Glibc
import Testing
@testable import SliderOutput

/// Drives a hook the way the app's poll loop does: poll the pidfd, then `reap()`.
private func runUntilIdle(_ hook: ExecHook, timeout: Double = 10) {
    let deadline = monotonicNow() + timeout
    while hook.isRunning && monotonicNow() < deadline {
        if let fd = hook.pollDescriptor {
            var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 1000)
        }
        hook.reap()
    }
}

private func wasReaped(_ pid: Int32?) -> Bool {
    guard let pid else { return false }
    // A zombie still answers kill(pid, 0); only a reaped pid gives ESRCH.
    return kill(pid, 0) == -1 && errno == ESRCH
}

@Suite struct ExecHookTests {
    let range = SliderRange(min: 0, max: 100)

    @Test func templateChecksAndExpansion() throws {
        #expect(throws: OutputOptionError.self) { try ExecTemplate(arguments: []) }
        #expect(throws: OutputOptionError.self) { try ExecTemplate(arguments: ["{value}"]) }
        // A placeholder anywhere in the command is refused; other braces are the command's own.
        for command in ["my{percent}tool", "/usr/bin/x{phase}", "{{value}", "a{b}{value}"] {
            #expect(throws: OutputOptionError.self, "\(command)") { try ExecTemplate(arguments: [command, "{value}"]) }
        }
        for command in ["a{b}", "{", "}{", "{valu", "value}", "{VALUE}"] {
            #expect(throws: Never.self, "\(command)") { _ = try ExecTemplate(arguments: [command, "{value}"]) }
        }
        let template = try ExecTemplate(arguments: ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", "{percent}%", "{x}{phase}{", "{value}{value}"])
        #expect(template.expand(value: "{percent}", percent: "42.00", phase: "moved")
                == ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", "42.00%", "{x}moved{", "{percent}{percent}"])
    }

    /// No shell anywhere: metacharacters in the template or in a substituted value reach the
    /// program as plain argv text, and nothing they spell is run.
    @Test func shellMetacharactersCannotRunAnything() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let output = open(directory + "/out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(output) }
        let template = try ExecTemplate(arguments: [
            "echo", "{value}", "; touch \(directory)/a", "$(touch \(directory)/b)", "`touch \(directory)/c`", "|", "touch", "\(directory)/d", "&&", "{phase}",
        ])
        let hook = ExecHook(template: template, childStdout: output)
        hook.submit(ValueSample(time: 0, value: 25, phase: .moved), range: range)
        runUntilIdle(hook)
        hook.submit(arguments: template.expand(value: "x; touch \(directory)/e", percent: "$(touch \(directory)/f)", phase: "`touch \(directory)/g`"))
        runUntilIdle(hook)
        hook.submit(arguments: ["echo", "$(touch \(directory)/h)"] )
        runUntilIdle(hook)
        #expect(readText(directory + "/out") == """
            25.00 ; touch \(directory)/a $(touch \(directory)/b) `touch \(directory)/c` | touch \(directory)/d && moved
            x; touch \(directory)/e ; touch \(directory)/a $(touch \(directory)/b) `touch \(directory)/c` | touch \(directory)/d && `touch \(directory)/g`
            $(touch \(directory)/h)

            """)
        for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            #expect(!fileExists(directory + "/" + name), "\(name) was created")
        }
        #expect(hook.takeWarnings() == [])
        #expect(wasReaped(hook.lastPID))
    }

    /// A slow command: while it runs, values coalesce to the newest; only the first and the last run.
    @Test func slowCommandCoalescesToTheLatestValue() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/log"
        let template = try ExecTemplate(arguments: ["sh", "-c", "echo \"$1 $2\" >> \"$3\"; sleep 0.3", "sh", "{value}", "{phase}", log])
        let hook = ExecHook(template: template)
        let samples = [(10.0, GesturePhase.began), (20, .moved), (30, .moved), (40, .moved), (55.5, .ended)]
        for (value, phase) in samples {
            hook.submit(ValueSample(time: 0, value: value, phase: phase), range: range)
            hook.reap()
        }
        #expect(hook.isRunning && hook.hasPending)
        runUntilIdle(hook)
        #expect(readText(log) == "10.00 began\n55.50 ended\n")
        #expect(!hook.isRunning && !hook.hasPending)
        #expect(wasReaped(hook.lastPID))
        // The same argv again runs nothing; a new value does.
        hook.submit(ValueSample(time: 0, value: 55.5, phase: .ended), range: range)
        #expect(!hook.isRunning)
        hook.submit(ValueSample(time: 0, value: 60, phase: .idle), range: range)
        runUntilIdle(hook)
        #expect(readText(log) == "10.00 began\n55.50 ended\n60.00 idle\n")
    }

    /// A, then B while A runs, then A again: the newest argv equals what just ran, so nothing more runs.
    @Test func returningToTheRunningValueRunsNothingMore() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/log"
        let hook = ExecHook(template: try ExecTemplate(arguments: ["sh", "-c", "echo \"$1\" >> \"$2\"; sleep 0.2", "sh", "{value}", log]))
        for value in [1.0, 2, 1] { hook.submit(ValueSample(time: 0, value: value, phase: .moved), range: range) }
        runUntilIdle(hook)
        #expect(readText(log) == "1.00\n")
    }

    /// The app ignores SIGPIPE and blocks SIGTERM for its signalfd (as Swift Testing's worker threads
    /// block signals here); a child gets default dispositions and an empty mask all the same.
    @Test func childSignalsAreResetToDefault() throws {
        signal(SIGPIPE, SIG_IGN)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        var warnings: [String] = []
        for signalName in ["TERM", "PIPE"] {
            let hook = ExecHook(template: try ExecTemplate(arguments: ["sh", "-c", "kill -\(signalName) $$; echo alive > \"$1\"", "sh", "\(directory)/{value}"]))
            hook.submit(ValueSample(time: 0, value: 1, phase: .idle), range: range)
            runUntilIdle(hook)
            warnings += hook.takeWarnings()
        }
        #expect(warnings == [
            "exec hook: \"sh\" was killed by signal 15 (reported once per signal)",
            "exec hook: \"sh\" was killed by signal 13 (reported once per signal)",
        ])
        #expect(!fileExists(directory + "/1.00"))
    }

    @Test func failingCommandIsReportedOncePerDistinctError() throws {
        let template = try ExecTemplate(arguments: ["sh", "-c", "exit $(( ${1%%.*} < 50 ? 3 : 4 ))", "sh", "{value}"])
        let hook = ExecHook(template: template)
        var warnings: [String] = []
        for value in [1.0, 2, 3, 60, 70, 4] {
            hook.submit(ValueSample(time: 0, value: value, phase: .idle), range: range)
            runUntilIdle(hook)
            warnings += hook.takeWarnings()
        }
        #expect(warnings == [
            "exec hook: \"sh\" exited with status 3 (reported once per status)",
            "exec hook: \"sh\" exited with status 4 (reported once per status)",
        ])
    }

    @Test func programThatCannotBeRunIsReportedOnce() throws {
        let hook = ExecHook(template: try ExecTemplate(arguments: ["/nonexistent/wlslider-hook", "{value}"]))
        var warnings: [String] = []
        for value in [1.0, 2, 3] {
            hook.submit(ValueSample(time: 0, value: value, phase: .idle), range: range)
            runUntilIdle(hook)
            warnings += hook.takeWarnings()
        }
        #expect(warnings == ["exec hook: cannot run \"/nonexistent/wlslider-hook\": No such file or directory (errno 2)"])
        #expect(!hook.isRunning)
    }

    @Test func killedChildIsReported() throws {
        let hook = ExecHook(template: try ExecTemplate(arguments: ["sh", "-c", "kill -9 $$", "sh", "{value}"]))
        hook.submit(ValueSample(time: 0, value: 1, phase: .idle), range: range)
        runUntilIdle(hook)
        #expect(hook.takeWarnings() == ["exec hook: \"sh\" was killed by signal 9 (reported once per signal)"])
    }

    /// SIGTERM path: finish waits for the running child, then runs the pending final value.
    @Test func finishDeliversThePendingFinalValue() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/log"
        let hook = ExecHook(template: try ExecTemplate(arguments: ["sh", "-c", "sleep 0.2; echo \"$1\" >> \"$2\"", "sh", "{percent}", log]))
        hook.submit(ValueSample(time: 0, value: 10, phase: .moved), range: SliderRange(min: 0, max: 200))
        hook.submit(ValueSample(time: 0, value: 150, phase: .ended), range: SliderRange(min: 0, max: 200))
        #expect(hook.finish(timeoutMilliseconds: 3000))
        #expect(readText(log) == "5.00\n75.00\n")
        #expect(wasReaped(hook.lastPID))
    }

    /// A hung command: each wait at exit is bounded, and the final value still runs (once, after
    /// the first wait), so it is never lost to a command slower than the wait.
    @Test func finishGivesUpOnAHungChildWithAWarningButStillRunsTheFinalValue() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/log"
        let hook = ExecHook(template: try ExecTemplate(arguments: ["sh", "-c", "echo \"$1\" >> \"$2\"; exec sleep 3", "sh", "{value}", log]))
        hook.submit(ValueSample(time: 0, value: 3, phase: .moved), range: range)
        let first = hook.lastPID
        hook.submit(ValueSample(time: 0, value: 4, phase: .moved), range: range)
        let started = monotonicNow()
        #expect(!hook.finish(timeoutMilliseconds: 200))
        #expect(monotonicNow() - started < 1.5)
        #expect(hook.takeWarnings() == [
            "exec hook: \"sh\" still running after 200 ms at exit; the last value runs without waiting for it",
            "exec hook: \"sh\" still running after 200 ms at exit; not waiting for the run of the last value",
        ])
        #expect(waitUntil(timeout: 5) { readText(log) == "3.00\n4.00\n" }, "\(readText(log))")
        for pid in [first, hook.lastPID].compactMap({ $0 }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}
