// Clients started as child processes (the real wlslider, weston-simple-shm, ...). Their output
// pipes and a pidfd sit in the compositor's own event loop, so "the client printed X" and "the
// client exited" are state changes a waiter can wait for, in order with everything else.
internal import CWaylandServer
import Glibc

/// One child process and the event sources that watch it.
final class ChildProcess {
    unowned let server: Server
    let id: ProcessID
    let pid: pid_t
    var pidfd: Int32
    var readers: [PipeReader] = []
    var exitSource: OpaquePointer?
    /// The write end of its standard input, when launched with a pipe there (nil: /dev/null, or closed).
    var standardInput: Int32?
    init(server: Server, id: ProcessID, pid: pid_t, pidfd: Int32) {
        self.server = server
        self.id = id
        self.pid = pid
        self.pidfd = pidfd
    }
}

/// Reads one of a child's output pipes into its ``ProcessState``, until end of file: that may come
/// after the child has been reaped (a process it left behind still holds the pipe). The server's
/// `pipeReaders` keeps it alive as long as its event source is registered.
final class PipeReader {
    unowned let server: Server
    let process: ProcessID
    let isStandardOutput: Bool
    let fd: Int32
    var source: OpaquePointer?
    init(server: Server, process: ProcessID, isStandardOutput: Bool, fd: Int32) {
        self.server = server
        self.process = process
        self.isStandardOutput = isStandardOutput
        self.fd = fd
    }

    /// Reads what is there; at end of file removes its source and closes the pipe.
    func drain() {
        guard source != nil else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n > 0 {
                append(chunk[0..<n])
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                return
            } else {
                close()
                return
            }
        }
    }

    func close() {
        guard let source else { return }
        wl_event_source_remove(source)
        self.source = nil
        server.ledger.close(fd)
        withExtendedLifetime(self) { server.pipeReaders[ObjectIdentifier(self)] = nil }
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        if isStandardOutput {
            server.state.processes[process]?.standardOutputBytes += bytes
        } else {
            server.state.processes[process]?.standardErrorBytes += bytes
        }
    }
}

extension Server {
    /// Starts `executable` (looked up in PATH) with the compositor's WAYLAND_DISPLAY and
    /// XDG_RUNTIME_DIR; stdin is /dev/null or, with `standardInput`, a pipe the test writes into;
    /// stdout and stderr are captured.
    func launch(_ executable: String, arguments: [String], environment extra: [String: String], standardInput: Bool) throws -> ProcessID {
        let out = try outputPipe("stdout"), err = try outputPipe("stderr")
        let input = standardInput ? try inputPipe() : nil
        let command = [executable] + arguments
        let pid: pid_t
        do {
            defer { ledger.close(out.write); ledger.close(err.write); input.map { ledger.close($0.read) } }
            pid = try spawnTestProcess(command, environment: childEnvironment(extra), stdin: input?.read, stdout: out.write, stderr: err.write)
        } catch {
            ledger.close(out.read)
            ledger.close(err.read)
            input.map { ledger.close($0.write) }
            throw error
        }
        let id = ProcessID(processIDs.next())
        state.processes[id] = ProcessState(id: id, pid: pid, command: command)
        let child = ChildProcess(server: self, id: id, pid: pid, pidfd: wlslider_pidfd_open(pid))
        guard child.pidfd >= 0 else {
            // Without a pidfd the child cannot be watched: end it rather than leave it unwatched.
            let error = TestCompositorError.system("pidfd_open(\(pid))")
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            state.processes[id]?.exitStatus = .signaled(SIGKILL)
            ledger.close(out.read)
            ledger.close(err.read)
            input.map { ledger.close($0.write) }
            throw error
        }
        child.standardInput = input?.write
        ledger.opened(child.pidfd, "pidfd of \(id)")
        child.readers = [watch(out.read, id, stdout: true), watch(err.read, id, stdout: false)]
        child.exitSource = wl_event_loop_add_fd(loop, child.pidfd, UInt32(WL_EVENT_READABLE), { _, _, data in
            let child = Unmanaged<ChildProcess>.fromOpaque(data!).takeUnretainedValue()
            child.server.reap(child, wait: false)
            return 0
        }, Unmanaged.passUnretained(child).toOpaque())
        children[id] = child
        return id
    }

    private func outputPipe(_ what: String) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard wlslider_pipe_cloexec(&fds) == 0 else { throw TestCompositorError.system("pipe2 for a child's \(what)") }
        // Only our end is non-blocking: the child's writes must block, not fail, when the pipe is full.
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        ledger.opened(fds[0], "\(what) pipe (read end)")
        ledger.opened(fds[1], "\(what) pipe (write end)")
        return (fds[0], fds[1])
    }

    /// A pipe for a child's stdin. Our (write) end is non-blocking: a child that stops reading makes
    /// a write fail with a clear error instead of hanging the compositor.
    private func inputPipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard wlslider_pipe_cloexec(&fds) == 0 else { throw TestCompositorError.system("pipe2 for a child's stdin") }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        ledger.opened(fds[0], "stdin pipe (read end)")
        ledger.opened(fds[1], "stdin pipe (write end)")
        return (fds[0], fds[1])
    }

    /// Writes `text` to a child's stdin pipe, all of it or an error.
    func writeStandardInput(_ id: ProcessID, _ text: String) throws {
        guard let fd = children[id]?.standardInput else {
            throw TestCompositorError("test compositor: \(id) has no open stdin pipe (launched without one, closed, or ended)")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw TestCompositorError.system("writing \(bytes.count) bytes to the stdin of \(id) (wrote \(written))")
        }
    }

    /// Closes a child's stdin pipe: it reads end of file.
    func closeStandardInput(_ id: ProcessID) throws {
        guard let child = children[id], let fd = child.standardInput else {
            throw TestCompositorError("test compositor: \(id) has no open stdin pipe (launched without one, closed, or ended)")
        }
        child.standardInput = nil
        ledger.close(fd)
    }

    private func watch(_ fd: Int32, _ id: ProcessID, stdout: Bool) -> PipeReader {
        let reader = PipeReader(server: self, process: id, isStandardOutput: stdout, fd: fd)
        reader.source = wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_READABLE), { _, _, data in
            Unmanaged<PipeReader>.fromOpaque(data!).takeUnretainedValue().drain()
            return 0
        }, Unmanaged.passUnretained(reader).toOpaque())
        pipeReaders[ObjectIdentifier(reader)] = reader
        return reader
    }

    private func childEnvironment(_ extra: [String: String]) -> [String] {
        var env: [String: String] = [:]
        var entry = Glibc.environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") { env[String(pair[..<eq])] = String(pair[pair.index(after: eq)...]) }
            entry += 1
        }
        // A client must reach this compositor and no other.
        env["WAYLAND_SOCKET"] = nil
        env["WAYLAND_DISPLAY"] = address.socketName
        env["XDG_RUNTIME_DIR"] = address.runtimeDirectory
        env.merge(extra) { _, new in new }
        return env.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// Records the exit status once the pidfd says the child ended (or, with `wait`, blocks for it).
    func reap(_ child: ChildProcess, wait: Bool) {
        var status: Int32 = 0
        guard waitpid(child.pid, &status, wait ? 0 : WNOHANG) == child.pid else { return }
        // Everything it wrote is in the pipes now. A pipe not at its end yet stays watched (in
        // `pipeReaders`): a process the child left behind still holds it.
        for reader in child.readers { reader.drain() }
        let low = status & 0x7f
        state.processes[child.id]?.exitStatus = low == 0 ? .exited((status >> 8) & 0xff) : .signaled(low)
        if let source = child.exitSource { wl_event_source_remove(source) }
        child.exitSource = nil
        if let fd = child.standardInput { ledger.close(fd) }
        child.standardInput = nil
        ledger.close(child.pidfd)
        children[child.id] = nil
    }

    /// Sends a signal to a running child's process group.
    func signal(_ id: ProcessID, _ signal: Int32) throws {
        guard let child = children[id] else { throw TestCompositorError("test compositor: \(id) is not running") }
        guard kill(-child.pid, signal) == 0 || kill(child.pid, signal) == 0 else { throw TestCompositorError.system("kill(\(child.pid), \(signal))") }
    }

    /// At shutdown: SIGTERM, up to a second of dispatching for a clean exit, then SIGKILL.
    func stopChildren() {
        guard !children.isEmpty else { return }
        for id in children.keys { try? signal(id, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(1)
        while !children.isEmpty && ContinuousClock.now < deadline {
            flush()
            _ = wl_event_loop_dispatch(loop, 50)
        }
        for child in children.values {
            try? signal(child.id, SIGKILL)
            reap(child, wait: true)
        }
    }
}

/// posix_spawnp with stdin from `stdin` (nil: /dev/null), the given stdout/stderr, default signal handling
/// (the test runner may ignore SIGPIPE, which exec would pass on), and its own process group.
/// Public so tests that run processes without a compositor start them the same way.
public func spawnTestProcess(_ command: [String], environment: [String], stdin: Int32?, stdout: Int32, stderr: Int32) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin {
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t(), mask = sigset_t()
    sigfillset(&defaults)
    sigemptyset(&mask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
    guard rc == 0 else { throw TestCompositorError.system("starting \(command[0])", rc) }
    return pid
}
