// Child processes: spawning one without a shell, and collecting its exit.
internal import CPosix
internal import Glibc

/// How a child process ended, as waitpid reports it.
public enum ChildExit: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signalled(Int32)
}

/// A spawned child: its pid and, where the kernel has pidfds, a descriptor that becomes readable
/// when it exits (so a poll loop sees the exit without SIGCHLD).
public struct ChildProcess: ~Copyable {
    /// The child's process id.
    public let pid: Int32
    /// Readable once the child has exited: poll it (nil on kernels without pidfd_open).
    public let exitDescriptor: Descriptor?
    /// The pidfd behind `exitDescriptor`, closed with this value.
    private let pidfd: FileDescriptor?

    /// posix_spawnp `arguments` (argv[0] searched in PATH) with stdin from /dev/null, stdout on
    /// `standardOutput`, stderr inherited, every descriptor from 3 up closed, the signal mask emptied
    /// and SIGPIPE, SIGINT, SIGTERM, SIGCHLD, SIGHUP reset to default (wlslider blocks or ignores
    /// them; a child must not inherit that).
    public init(spawning arguments: [String], standardOutput: Descriptor) throws(Errno) {
        precondition(!arguments.isEmpty, "ChildProcess needs at least argv[0]")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if standardOutput.rawValue != 1 { posix_spawn_file_actions_adddup2(&actions, standardOutput.rawValue, 1) }
        // Without closefrom (glibc < 2.34), children inherit only descriptors lacking O_CLOEXEC,
        // and wlslider opens every descriptor of its own with it.
        _ = cposix_spawn_closefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: Int32 = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, cposix_environ())
        guard status == 0 else { throw Errno(status) }
        self.pid = pid
        do throws(Errno) {
            let file = try FileDescriptor.processExit(of: pid)
            exitDescriptor = file.descriptor
            pidfd = consume file
        } catch {
            exitDescriptor = nil
            pidfd = nil
        }
    }

    /// waitpid(pid, WNOHANG): nil while the child still runs.
    public func reap() throws(Errno) -> ChildExit? {
        var status: Int32 = 0
        let reaped = try retryingInterrupts { waitpid(pid, &status, WNOHANG) }.get()
        guard reaped == pid else { return nil }
        if cposix_wait_signalled(status) != 0 { return .signalled(cposix_wait_term_signal(status)) }
        return .exited(cposix_wait_exit_status(status))
    }

    /// Waits up to `timeoutMilliseconds` for the child to exit and collects it: nil when it still
    /// runs after that.
    public func wait(timeoutMilliseconds: Int32) throws(Errno) -> ChildExit? {
        if let exit = exitDescriptor {
            _ = try exit.poll(.readable, timeoutMilliseconds: timeoutMilliseconds)
            return try reap()
        }
        // No pidfd (kernel < 5.3): look every 10 ms.
        var waited: Int32 = 0
        while true {
            if let exit = try reap() { return exit }
            if waited >= timeoutMilliseconds { return nil }
            _ = Glibc.poll(nil, 0, 10)
            waited += 10
        }
    }
}
