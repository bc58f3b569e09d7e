// wlslider as a hostile user and a hostile system meet it: closed stdio, a full disk, readers that
// leave, a receiver that is not running, a window whose frame callbacks never come, a compositor
// that never answers, signals at every moment. Each run checks the exit status, the one message
// on stderr, and that an idle wlslider uses no CPU (its threads' schedstat).
import Glibc
import TestCompositor
import Testing

/// The most CPU an idle wlslider may use over `FailureTests.idleWindow`.
private let idleCPUBudgetMilliseconds = 20.0

@Suite("Failure behaviour: stdio, sinks, hidden windows, connecting, signals")
struct FailureTests {
    static let idleWindow: Duration = .seconds(2)

    // MARK: Closed standard descriptors

    /// `<&-`: fd 0 is closed. The first descriptor wlslider opened (the Wayland socket) used to
    /// become fd 0, and a blocking read of "stdin" sat on it with SIGTERM unanswered. Now fd 0 is
    /// /dev/null: end of input at once, and the slider runs on.
    @Test func closedStdinIsNullAndTheSliderRuns() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--value", "40"], environment: compositor.environment, redirections: "<&-")
            _ = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            try await run.waitForLines("the initial value") { $0 == ["40.00"] }
            let cpu = try await run.idleCPUMilliseconds(over: Self.idleWindow)
            #expect(cpu < idleCPUBudgetMilliseconds, "idle wlslider used \(cpu) ms of CPU")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
            #expect(run.stderrText == "", "\(run.summary)")
        }
    }

    /// `>&-`: fd 1 is closed. Value lines used to be written into whatever took fd 1 (the Wayland
    /// socket: a protocol error). Now they go to /dev/null, and the slider works as ever.
    @Test func closedStdoutIsNullAndTheProtocolStaysClean() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--value", "40"], environment: compositor.environment, redirections: ">&-")
            let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            _ = try await compositor.waitForCommit(on: surface, after: 0, timeout: patience) { $0.buffer != nil }
            run.send("80\n")
            try await run.expectStillRunning(for: .milliseconds(600))
            #expect(compositor.state.protocolErrors.isEmpty, "\(compositor.state.protocolErrors)")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
            #expect(run.stderrText == "")
        }
    }

    /// `2>&-`: fd 2 is closed. Warnings (here: the OSC receiver is missing) used to be written into
    /// the Wayland socket. Now they go to /dev/null; values and exit status are unaffected.
    @Test func closedStderrIsNullAndWarningsGoNowhere() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--value", "40", "--osc", "127.0.0.1:9/x"], environment: compositor.environment,
                                          redirections: "2>&-")
            try await run.waitForLines("the initial value") { $0 == ["40.00"] }
            run.send("60\n")
            try await run.waitForLastLine("60.00")
            #expect(compositor.state.protocolErrors.isEmpty, "\(compositor.state.protocolErrors)")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
        }
    }

    // MARK: Sinks that fail

    /// `wlslider | head -1` while nothing moves: the reader leaving is seen at once (POLLERR on
    /// the pipe), not at the next value, and costs no spinning meanwhile.
    @Test func readerLeavingWhileIdleEndsAtOnce() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10"])
            try await run.waitForLines("the initial value") { $0 == ["10.00"] }
            run.closeStdout()
            #expect(try await run.waitForExit(timeout: .seconds(2)) == 0)
            #expect(run.stderrText == "")
        }
    }

    /// stdout on a full disk (`>/dev/full`): one line naming the error, and with no other sink,
    /// exit 1 — not a silent spin.
    @Test func fullDiskOnStdoutIsOneLineAndExitOne() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--value", "10"], environment: compositor.environment, redirections: ">/dev/full")
            #expect(try await run.waitForExit(timeout: .seconds(10)) == 1)
            #expect(run.stderrLines == ["wlslider: stdout: write to fd 1: No space left on device (errno 28); no more values are written there"])
        }
    }

    /// `--audio-out /dev/full` next to value lines: the audio sink is dropped with one line, the
    /// lines go on, nothing spins.
    @Test func fullDiskOnAudioOutDropsThatSinkOnly() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--audio-out", "/dev/full"])
            try await run.wait(for: "the audio sink to fail") { run.stderrLines.count == 1 }
            let line = run.stderrLines.first ?? ""
            #expect(line.hasPrefix("wlslider: --audio-out: write to fd ")
                        && line.hasSuffix(": No space left on device (errno 28); no more values are written there"), "\(line)")
            run.send("70\n")
            try await run.waitForLastLine("70.00")
            let cpu = try await run.idleCPUMilliseconds(over: Self.idleWindow)
            #expect(cpu < idleCPUBudgetMilliseconds, "idle wlslider used \(cpu) ms of CPU")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
            #expect(run.stderrLines.count == 1, "\(run.summary)")
        }
    }

    /// `--audio-out -` with stdout on a full disk: the only sink failed, exit 1 with one line.
    @Test func fullDiskOnTheOnlySinkExitsOne() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--audio-out", "-"], environment: compositor.environment, redirections: ">/dev/full")
            #expect(try await run.waitForExit(timeout: .seconds(10)) == 1)
            #expect(run.stderrLines == ["wlslider: --audio-out: write to fd 1: No space left on device (errno 28); no more values are written there"])
        }
    }

    /// An OSC receiver that is not running (the normal case of one not started yet): the ICMP
    /// refusal is read off the socket and reported once; wlslider neither spins on the socket's
    /// error nor stops sending.
    @Test func oscToAClosedPortIsReportedOnceAndCostsNothingIdle() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--osc", "127.0.0.1:9/x"])
            run.send("70\n")
            try await run.waitForLastLine("70.00")
            try await run.wait(for: "the refusal") { !run.stderrLines.isEmpty }
            let cpu = try await run.idleCPUMilliseconds(over: Self.idleWindow)
            #expect(cpu < idleCPUBudgetMilliseconds, "idle wlslider used \(cpu) ms of CPU")
            run.send("20\n")
            try await run.waitForLastLine("20.00")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
            #expect(run.stderrLines == ["wlslider: osc: send to 127.0.0.1:9/x: Connection refused (errno 111); is the receiver running? (reported once; sending goes on)"])
        }
    }

    /// stdout and stderr share one pipe (`2>&1 | slow-reader`) and an --exec child writes a lot
    /// to it: O_NONBLOCK, a flag of the shared open file description, is never set on it, so the
    /// child's writes block as they should instead of failing with EAGAIN.
    @Test func sharedStdoutKeepsItsFlagsForExecChildren() async throws {
        let directory = makeTemporaryDirectory("shared-stdout")
        defer { removeDirectory(directory) }
        let log = directory + "/log"
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let (readEnd, writeEnd) = (fds[0], fds[1])
            defer { close(readEnd) }
            // A second descriptor for the same open file description: its flags are the shared ones.
            let probe = dup(writeEnd)
            defer { close(probe) }
            #expect(fcntl(probe, F_GETFL) & O_NONBLOCK == 0)
            // (--exec takes the arguments up to the next option: `-c` would be one, hence a script.)
            let script = directory + "/chatty.sh"
            try writeFile(script, "head -c 300000 /dev/zero | tr '\\0' x || echo FAILED >> \"$2\"; echo \"$1\" >> \"$2\"\n")
            let environment = compositor.environment.map { "\($0.key)=\($0.value)" } + ["PATH=/usr/bin:/bin"]
            let pid = try spawnTestProcess(
                [wlsliderPath, "--value", "10", "--exec", "sh", script, "{value}", log],
                environment: environment, stdin: nil, stdout: writeEnd, stderr: writeEnd)
            close(writeEnd)
            // A slow reader: nothing is read for a while (the child fills the pipe and waits), then
            // everything.
            try await Task.sleep(for: .milliseconds(800))
            #expect(fcntl(probe, F_GETFL) & O_NONBLOCK == 0, "O_NONBLOCK leaked onto the shared stdout")
            var text: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
            let deadline = ContinuousClock.now + .seconds(20)
            while !String(decoding: readFile(log), as: UTF8.self).hasSuffix("\n"), ContinuousClock.now < deadline {
                let n = read(readEnd, &chunk, chunk.count)
                if n > 0 { text += chunk[0..<n] } else { try await Task.sleep(for: .milliseconds(5)) }
            }
            kill(pid, SIGTERM)
            var status: Int32 = 0
            // Drain so its last words cannot block it, then reap.
            for _ in 0..<500 where waitpid(pid, &status, WNOHANG) == 0 {
                _ = read(readEnd, &chunk, chunk.count)
                usleep(10_000)
            }
            #expect(String(decoding: readFile(log), as: UTF8.self) == "10.00\n", "the child's big write failed")
        }
    }

    /// stdout is a terminal whose output is stopped (Ctrl-S): writes would block forever. The
    /// loop never blocks on it: input is still taken, and SIGTERM still ends wlslider promptly.
    @Test func pausedTerminalNeverBlocksTheLoop() async throws {
        // posix_openpt and friends are not in Swift's Glibc module: the same through /dev/ptmx.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        #expect(master >= 0)
        defer { close(master) }
        // TIOCSPTLCK and TIOCGPTN (Linux's generic ioctl numbers, as on x86-64 and arm64).
        let unlockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430
        var unlock: Int32 = 0, number: UInt32 = 0
        #expect(ioctl(master, unlockRequest, &unlock) == 0 && ioctl(master, numberRequest, &number) == 0)
        let slavePath = "/dev/pts/\(number)"
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        defer { close(slave) }
        #expect(tcflow(slave, TCOOFF) == 0, "Ctrl-S")
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--value", "0"], environment: compositor.environment,
                                          redirections: ">\(slavePath)")
            _ = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            for value in stride(from: 5, through: 100, by: 5) { run.send("\(value)\n") }
            try await Task.sleep(for: .milliseconds(500))
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(10)) == 0)
            #expect(run.stderrText == "", "\(run.summary)")
        }
    }

    // MARK: A window nobody sees

    /// Frame callbacks withheld (a hidden workspace, a minimised window, a stalled compositor):
    /// a value from stdin still glides on the value stream, at the output's refresh rate, and ends
    /// on its target; then nothing runs.
    @Test func hiddenWindowStillGlides() async throws {
        try await withTestCompositor(StreamFixture.configuration(frames: .withheld)) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "25", "--format", "json", "--precision", "4"])
            try await run.waitForLines("the initial value") { $0.count == 1 }
            let commitsBefore = try compositor.surface(surface).commits.count
            run.send("75\n")
            let lines = try await run.waitForLines("the glide to end") { $0.last?.contains("\"value\":75.0000") == true }
            let glide = lines.dropFirst()
            #expect(glide.count >= 8, "a 0.25 s glide at 60 Hz gives about 15 samples, got \(glide.count): \(glide)")
            let values = glide.compactMap { line in line.split(separator: ",").first { $0.contains("value") }
                .flatMap { Double($0.split(separator: ":")[1]) } }
            #expect(isAscending(values, strictly: true), "\(values)")
            #expect(values.last == 75)
            let times = glide.compactMap { line in line.split(separator: ",").first { $0.contains("\"t\"") }
                .flatMap { Int($0.split(separator: ":")[1]) } }
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(gaps.allSatisfy { $0 >= 10 && $0 <= 60 }, "samples should come about every 16.7 ms: \(gaps)")
            let cpu = try await run.idleCPUMilliseconds(over: Self.idleWindow)
            #expect(cpu < idleCPUBudgetMilliseconds, "idle wlslider used \(cpu) ms of CPU")
            #expect(run.stdoutLines.count == lines.count, "nothing more while idle")
            #expect(try compositor.surface(surface).commits.count <= commitsBefore + 1,
                    "no drawing without frame callbacks (one frame may be drawn at once)")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
        }
    }

    /// Frame callbacks that stop mid-glide (the window is minimised while it moves): the watch
    /// for a late callback, moved with every frame, notices within three and a half frames of the
    /// last request (a frame and a half, plus its two frames of leeway), and the stream goes on
    /// at the refresh rate to the target.
    @Test func callbacksStoppingMidGlideLeaveAShortGap() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "0", "--format", "json", "--precision", "4",
                                                               "--jump-duration", "1", "--curve", "linear"])
            try await run.waitForLines("the initial value") { $0.count == 1 }
            run.send("100\n")
            _ = try await run.waitForLines("ten frames of the glide") { $0.count >= 11 }
            try compositor.setFrameCallbackMode(.withheld)
            let lines = try await run.waitForLines("the glide to end") { $0.last?.contains("\"value\":100.0000") == true }
            let times = lines.dropFirst().compactMap { line in line.split(separator: ",").first { $0.contains("\"t\"") }
                .flatMap { Int($0.split(separator: ":")[1]) } }
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(times.count >= 50, "a 1 s glide at 60 Hz gives about 60 samples: \(times.count)")
            // 3.5 frames are 58 ms; the rest is slack for a loaded machine, whose timers fire late.
            #expect(gaps.allSatisfy { $0 <= 150 }, "no gap much longer than 3.5 frames: \(gaps)")
            let sorted = gaps.sorted()
            #expect((10...30).contains(sorted[sorted.count / 2]), "most samples a frame apart, before and after: \(gaps)")
            run.send("quit\n")
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
        }
    }

    // MARK: The way out

    /// SIGTERM mid-glide: every sink ends on the target — stdout's last line, and the last sample
    /// of --audio-out, which used to stop at the value shown at that instant.
    @Test func sigtermMidGlideLeavesEverySinkOnTheTarget() async throws {
        let directory = makeTemporaryDirectory("sigterm-audio")
        defer { removeDirectory(directory) }
        let audio = directory + "/a.f32"
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            // A glide of 60 s: SIGTERM lands while it is under way however long this test waits
            // to see it start (a sanitized run once saw a 5 s glide end before it looked).
            let (run, _) = try await compositor.startWlslider(["--value", "0", "--jump-duration", "60", "--audio-out", audio, "--rate", "8000"])
            run.send("100\n")
            try await run.waitForLines("the glide under way") { numbers($0).last.map { $0 > 0 && $0 < 50 } ?? false }
            run.signal(SIGTERM)
            #expect(try await run.waitForExit(timeout: .seconds(5)) == 0)
            #expect(run.stdoutLines.last == "100.00")
            let bytes = readFile(audio)
            #expect(bytes.count >= 4 && bytes.count % 4 == 0)
            let last = bytes.suffix(4).withUnsafeBytes { Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
            #expect(last == 100, "the audio stream ends on \(last)")
        }
    }

    /// An --exec command slower than any fixed wait: at exit the running child is waited for, and
    /// the final value still runs.
    @Test func slowExecCommandStillGetsTheFinalValue() async throws {
        let directory = makeTemporaryDirectory("slow-exec")
        defer { removeDirectory(directory) }
        let log = directory + "/log"
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let script = directory + "/slow.sh"
            try writeFile(script, "sleep 2.5; echo \"$1\" >> \"$2\"\n")
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--exec", "sh", script, "{value}", log])
            run.send("90\n")
            try await run.waitForLastLine("90.00")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            // The final run was started before wlslider exited; it may finish just after.
            try await run.wait(for: "the final value's run") { String(decoding: readFile(log), as: UTF8.self).hasSuffix("90.00\n") }
            // A loaded machine may let the first run end mid-glide: then a value on the way ran too.
            let runs = String(decoding: readFile(log), as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(runs.first == "10.00" && runs.last == "90.00" && runs.count <= 3, "\(runs)")
        }
    }

    /// `--exit-on-eof` when reading stdin fails (here stdin is a directory: EISDIR): the failure is
    /// reported and counts as the end of input.
    @Test func exitOnEOFAlsoWhenReadingStdinFails() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--exit-on-eof"], environment: compositor.environment, redirections: "</")
            #expect(try await run.waitForExit(timeout: .seconds(10)) == 0)
            #expect(run.stderrLines == ["wlslider: stdin: read from fd 0: Is a directory (errno 21); no longer reading commands"])
        }
    }

    // MARK: Connecting

    /// A socket that accepts the connection and never answers: connecting gives up after 5 s with
    /// one line, exit 1, instead of hanging forever.
    @Test func compositorThatNeverAnswersTimesOut() async throws {
        let mute = try MuteSocket()
        let run = try WlsliderProcess([], environment: mute.environment)
        let started = ContinuousClock.now
        #expect(try await run.waitForExit() == 1)
        // Only the lower bound is sure: on a loaded machine the test itself may look late.
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(4.5), "gave up after \(elapsed)")
        #expect(run.stderrLines == ["wlslider: the compositor at mute did not answer within 5000 ms (while waiting for its globals)"])
    }

    /// What does not run the slider (help, version, completions, a usage error) does not wait for
    /// a compositor, even one that keeps a connection waiting, and says only what it says without
    /// a compositor.
    @Test(arguments: [(["--help"], Int32(0), "OVERVIEW:"), (["--version"], 0, "0.1.0"),
                      (["--generate-completion-script", "bash"], 0, "_wlslider"),
                      (["--min", "9", "--max", "5"], 64, ""), (["--size", "1x1x1"], 64, ""), (["--nonsense"], 64, "")])
    func nothingToRunAbandonsTheConnect(arguments: [String], status: Int32, output: String) async throws {
        let mute = try MuteSocket()
        let run = try WlsliderProcess(arguments, environment: mute.environment.merging(["WLSLIDER_CONNECT_TIMEOUT_MS": "600000"]) { $1 })
        // The connect timeout is 600 s here: anything waiting for the compositor would outlast
        // the wait for the exit (30 s).
        #expect(try await run.waitForExit() == status)
        #expect(output.isEmpty ? run.stdoutText.isEmpty : run.stdoutText.contains(output), "\(run.stdoutText.prefix(200))")
        if status == 64 {
            #expect(run.stderrText.hasPrefix("Error: ") && !run.stderrText.contains("compositor"), "\(run.stderrText)")
        } else {
            #expect(run.stderrText == "")
        }
    }

    /// SIGTERM (and SIGINT) while connecting end wlslider with status 0, not 143/130. (The connect
    /// timeout is lengthened so that a loaded machine cannot make the signal come after it.)
    @Test(arguments: [SIGTERM, SIGINT])
    func signalWhileConnectingExitsZero(signal: Int32) async throws {
        let mute = try MuteSocket()
        let run = try WlsliderProcess([], environment: mute.environment.merging(["WLSLIDER_CONNECT_TIMEOUT_MS": "600000"]) { $1 })
        try await mute.waitForConnection()
        try await Task.sleep(for: .milliseconds(100))
        run.signal(signal)
        #expect(try await run.waitForExit() == 0)
        #expect(run.stderrText == "")
    }
}

/// A Unix socket named `mute` in a private runtime directory that accepts connections and never
/// says a word: a compositor that hangs.
private final class MuteSocket {
    let directory = makeTemporaryDirectory("mute")
    private let listener: Int32
    private var accepted: [Int32] = []

    init() throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((directory + "/mute").utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.map { UInt8(bitPattern: $0) }.prefix(raw.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw WaitTimeout(description: "cannot listen: errno \(errno)") }
    }

    deinit {
        close(listener)
        accepted.forEach { close($0) }
        removeDirectory(directory)
    }

    var environment: [String: String] { ["XDG_RUNTIME_DIR": directory, "WAYLAND_DISPLAY": "mute"] }

    /// Waits until a client has connected (and accepts it, to say nothing ever).
    func waitForConnection() async throws {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 0) > 0 {
                let fd = accept(listener, nil, nil)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                accepted.append(fd)
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw WaitTimeout(description: "nobody connected to the mute socket")
    }
}
