// Every system call SliderOutput makes goes through this file: thin named wrappers that retry EINTR
// in one place (`Sys.retryingEINTR`) and turn `-1 + errno` into a typed `Errno`. The rest of the
// module never touches errno or a C struct directly.
internal import Glibc

/// A failed system call: what was attempted (with the numbers that matter) and the errno it got.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was attempted, e.g. `write to fd 1` or `open "/tmp/a.f32" for writing`.
    public let operation: String
    /// The C `errno` value the call failed with.
    public let code: Int32

    /// Creates an error for `operation` that failed with errno `code`.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// One line: `open "/x" for writing: No such file or directory (errno 2)`.
    public var description: String { "\(operation): \(Errno(code).message) (errno \(code))" }
}

/// An errno value; `Hashable` so warnings can be de-duplicated per distinct error.
struct Errno: Error, Hashable {
    let code: Int32
    init(_ code: Int32) { self.code = code }

    static let wouldBlock = Errno(EAGAIN)
    static let brokenPipe = Errno(EPIPE)
    static let connectionRefused = Errno(ECONNREFUSED)

    /// strerror's text. Glibc's messages are static strings; copy it at once.
    var message: String { String(cString: strerror(code)) }

    func error(_ operation: String) -> SystemError { SystemError(operation, code: code) }
}

/// A resolved socket address, stored by value (sockaddr_storage) so it can outlive getaddrinfo's list.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 { Int32(storage.ss_family) }
}

/// getaddrinfo's failure message.
struct ResolveFailure: Error {
    let message: String
}

/// How a child process ended, as waitpid reports it.
enum ChildExit: Equatable {
    case exited(Int32)
    case signalled(Int32)
}

enum Sys {
    /// Runs `body` until it does not fail with EINTR. The one place where EINTR is retried.
    @inline(__always)
    static func retryingEINTR(_ body: () -> Int) -> Result<Int, Errno> {
        while true {
            let result = body()
            if result >= 0 { return .success(result) }
            let code = errno
            if code != EINTR { return .failure(Errno(code)) }
        }
    }

    // MARK: File descriptors

    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingEINTR { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    static func read(_ fd: Int32, into bytes: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retryingEINTR { Glibc.read(fd, bytes.baseAddress, bytes.count) }
    }

    static func close(_ fd: Int32) {
        // Not retried: on Linux the descriptor is released even when close reports EINTR.
        _ = Glibc.close(fd)
    }

    /// open(2) with O_CLOEXEC always added, so children spawned by the exec hook never inherit it.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) -> Result<Int32, Errno> {
        retryingEINTR { Int(Glibc.open(path, flags | O_CLOEXEC, mode)) }.map { Int32($0) }
    }

    /// Flags for an output file: write only, created with mode 0644, truncated, never blocking the loop.
    static let writeCreateTruncateNonBlocking = O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK

    /// ENXIO: open(O_WRONLY | O_NONBLOCK) of a FIFO that nobody reads.
    static let noReaderOnFIFO = ENXIO

    static func statusFlags(_ fd: Int32) -> Result<Int32, Errno> {
        retryingEINTR { Int(fcntl(fd, F_GETFL)) }.map { Int32($0) }
    }

    static func setStatusFlags(_ fd: Int32, _ flags: Int32) -> Result<Void, Errno> {
        retryingEINTR { Int(fcntl(fd, F_SETFL, flags)) }.map { _ in () }
    }

    /// Sets O_NONBLOCK; returns the previous status flags when it changed them (to restore later).
    static func enableNonBlocking(_ fd: Int32) -> Int32? {
        guard case .success(let flags) = statusFlags(fd), flags & O_NONBLOCK == 0,
              case .success = setStatusFlags(fd, flags | O_NONBLOCK) else { return nil }
        return flags
    }

    /// Waits up to `timeoutMilliseconds` for `fd` to take more bytes; false on timeout or error.
    static func waitUntilWritable(_ fd: Int32, timeoutMilliseconds: Int32) -> Bool {
        guard case .success(let events) = poll(fd, events: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds) else {
            return false
        }
        return events != 0
    }

    /// POLLIN, for callers that do not import Glibc.
    static let readableEvent = Int16(POLLIN)

    /// Blocks the calling thread for `milliseconds`. Only for shutdown paths, never in the event loop.
    static func pause(milliseconds: Int32) {
        _ = Glibc.poll(nil, 0, milliseconds)
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func isRegularFile(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Waits up to `timeoutMilliseconds` for `events` on `fd`; returns the revents (0 on timeout).
    static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Result<Int16, Errno> {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return retryingEINTR { Int(Glibc.poll(&entry, 1, timeoutMilliseconds)) }.map { _ in entry.revents }
    }

    // MARK: UDP

    /// Resolves `host`/`port` for UDP. Returns getaddrinfo's message on failure.
    static func resolveUDP(host: String, port: UInt16) -> Result<SocketAddress, ResolveFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(ResolveFailure(message: status == EAI_SYSTEM ? Errno(errno).message : String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var address = SocketAddress()
        address.length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &address.storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return .success(address)
    }

    /// The numeric text of an address: `127.0.0.1:57120` or `[::1]:57120`.
    static func numericText(_ address: SocketAddress) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        var copy = address
        let status = withUnsafePointer(to: &copy.storage) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, address.length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                            NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return "?" }
        let hostText = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let serviceText = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return address.family == AF_INET6 ? "[\(hostText)]:\(serviceText)" : "\(hostText):\(serviceText)"
    }

    /// A non-blocking, close-on-exec UDP socket connected to `address`. Connecting lets the kernel
    /// report ICMP port-unreachable as ECONNREFUSED on a later send, so a missing receiver is visible.
    static func connectedUDPSocket(to address: SocketAddress) -> Result<Int32, Errno> {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        var copy = address
        let connected = retryingEINTR {
            withUnsafePointer(to: &copy.storage) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { Int(connect(fd, $0, address.length)) }
            }
        }
        if case .failure(let error) = connected {
            close(fd)
            return .failure(error)
        }
        return .success(fd)
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingEINTR { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    // MARK: Child processes

    /// posix_spawnp `arguments` (argv[0] searched in PATH) with stdin from /dev/null, stdout on
    /// `stdoutFD`, every other descriptor from 3 up closed, the signal mask emptied and SIGPIPE,
    /// SIGINT, SIGTERM, SIGCHLD reset to default (the app blocks/ignores them; a child must not inherit that).
    static func spawn(_ arguments: [String], stdoutFD: Int32) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if stdoutFD != 1 { posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1) }
        closeFrom3(&actions)

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

        var pid: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, environ)
        return status == 0 ? .success(pid) : .failure(Errno(status))
    }

    /// glibc ≥ 2.34 has posix_spawn_file_actions_addclosefrom_np, but Swift's Glibc module does not
    /// import it (it is behind _GNU_SOURCE); look it up at run time. Without it, children inherit only
    /// descriptors that lack O_CLOEXEC, which the app's own are expected to have.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    /// waitpid(pid, WNOHANG): nil while the child still runs.
    static func reap(_ pid: pid_t) -> Result<ChildExit?, Errno> {
        var status: Int32 = 0
        return retryingEINTR { Int(waitpid(pid, &status, WNOHANG)) }.map { reaped in
            guard reaped == pid else { return nil }
            // WIFEXITED/WEXITSTATUS are macros Swift cannot import; these are their Linux definitions.
            let termSignal = status & 0x7f
            return termSignal == 0 ? .exited((status >> 8) & 0xff) : .signalled(termSignal)
        }
    }

    /// pidfd_open(2): a descriptor that becomes readable when `pid` exits. glibc 2.36 has the
    /// wrapper but Swift's Glibc module does not include <sys/pidfd.h>, so it is looked up at run time.
    static func pidfdOpen(_ pid: pid_t) -> Int32? {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(nil, "pidfd_open") else { return nil }
        let fd = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        guard fd >= 0 else { return nil }
        // pidfds are created close-on-exec already (the kernel sets O_CLOEXEC on them).
        return fd
    }
}
