// Descriptors: `Descriptor` names one and makes the calls on it; `FileDescriptor` owns one and
// closes it exactly once. Every read, write and poll of wlslider goes through here.
internal import CPosix
internal import Glibc

/// A descriptor number and the system calls on it. It does not own the descriptor: see
/// `FileDescriptor` for that. Every call retries EINTR and reports other failures as `Errno`.
public struct Descriptor: Hashable, Sendable, CustomStringConvertible {
    /// The number.
    public let rawValue: Int32

    /// Names descriptor `rawValue` (not checked: calls on a closed one fail with EBADF).
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// fd 0.
    public static let standardInput = Descriptor(0)
    /// fd 1.
    public static let standardOutput = Descriptor(1)
    /// fd 2.
    public static let standardError = Descriptor(2)

    /// "fd 3"
    public var description: String { "fd \(rawValue)" }

    /// read(2) into `buffer`: the byte count, 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// pread(2) at `offset` into `buffer`: the byte count, 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }.get()
    }

    /// write(2): the byte count written, which may be less than `bytes.count`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }.get()
    }

    /// send(2) with MSG_DONTWAIT | MSG_NOSIGNAL: a non-blocking write to a socket whatever the
    /// socket's own flags are, and EPIPE rather than SIGPIPE.
    public func sendNonBlocking(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts {
            Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        }.get()
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for `events`; returns the events that
    /// occurred (empty on timeout).
    public func poll(_ events: PollEvents, timeoutMilliseconds: Int32) throws(Errno) -> PollEvents {
        var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        _ = try retryingInterrupts { Glibc.poll(&entry, 1, timeoutMilliseconds) }.get()
        return PollEvents(rawValue: entry.revents)
    }

    /// Whether this descriptor is open (fcntl F_GETFD succeeds).
    public var isOpen: Bool { fcntl(rawValue, F_GETFD) != -1 || errno != EBADF }

    /// The file status flags (fcntl F_GETFL): O_APPEND, O_NONBLOCK, the access mode.
    public func statusFlags() throws(Errno) -> Int32 {
        try retryingInterrupts { fcntl(rawValue, F_GETFL) }.get()
    }

    /// What kind of file this is (fstat).
    public func kind() throws(Errno) -> FileKind {
        try identity().kind
    }

    /// Which file it is (fstat).
    public func identity() throws(Errno) -> FileIdentity {
        var info = stat()
        _ = try retryingInterrupts { fstat(rawValue, &info) }.get()
        return FileIdentity(info)
    }

    /// The size in bytes (fstat's st_size).
    public func size() throws(Errno) -> Int {
        var info = stat()
        _ = try retryingInterrupts { fstat(rawValue, &info) }.get()
        return Int(info.st_size)
    }

    /// Whether it is a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}

/// Which file a descriptor or a path names: two names of one file (a path and an open descriptor,
/// `/dev/stdout` and fd 1) have the same device and inode.
public struct FileIdentity: Equatable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let kind: FileKind

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        kind = FileKind(mode: info.st_mode)
    }

    /// The file at `path`, symbolic links followed (as `open` does); nil when there is none yet or
    /// it cannot be looked at.
    public init?(path: String) {
        var info = stat()
        guard case .success = retryingInterrupts({ stat(path, &info) }) else { return nil }
        self.init(info)
    }
}

/// The kind of file a descriptor refers to.
public enum FileKind: Equatable, Sendable {
    case regular, directory, characterDevice, blockDevice, fifo, socket, symbolicLink, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }
}

/// `poll(2)` event bits.
public struct PollEvents: OptionSet, Hashable, Sendable {
    /// The `poll(2)` bits.
    public let rawValue: Int16
    /// Wraps `poll(2)` bits.
    public init(rawValue: Int16) { self.rawValue = rawValue }
    /// Data can be read (`POLLIN`).
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// Data can be written without blocking (`POLLOUT`).
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// An error condition (`POLLERR`; reported even if not asked for). A handler must resolve it
    /// (read the error off the descriptor, or stop polling it), or the loop sees it again at once.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The peer hung up (`POLLHUP`; reported even if not asked for).
    public static let hangup = PollEvents(rawValue: Int16(POLLHUP))
    /// The descriptor is not open (`POLLNVAL`).
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// An open descriptor owned by exactly one value: closed when that value goes away (or by
/// `close()`), never twice, so a number the kernel reused meanwhile is never closed by mistake.
public struct FileDescriptor: ~Copyable {
    /// The descriptor, for calls; valid while this value lives.
    public let descriptor: Descriptor

    /// Takes ownership of `rawValue`.
    public init(owning rawValue: Int32) {
        descriptor = Descriptor(rawValue)
    }

    deinit {
        // Not retried: on Linux the descriptor is released even when close reports EINTR.
        _ = Glibc.close(descriptor.rawValue)
    }

    /// The number (valid while this value lives).
    public var rawValue: Int32 { descriptor.rawValue }

    /// Closes now.
    public consuming func close() {}

    /// Gives up ownership without closing: the caller owns the number now.
    public consuming func release() -> Int32 {
        let raw = descriptor.rawValue
        discard self
        return raw
    }

    /// open(2) with O_CLOEXEC added, so children never inherit it.
    public static func open(_ path: String, _ flags: Int32, mode: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        let fd = try retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC, mode) }.get()
        return FileDescriptor(owning: fd)
    }

    /// Opens `path` for writing, created (mode 0644) or truncated, non-blocking (a FIFO without a
    /// reader fails with `Errno.noReader`), close-on-exec.
    public static func createForWriting(_ path: String) throws(Errno) -> FileDescriptor {
        try open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK)
    }

    /// An anonymous memory file (memfd), sealable, close-on-exec.
    public static func memoryFile(name: String) throws(Errno) -> FileDescriptor {
        let fd = cposix_memfd_create(name)
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(owning: fd)
    }

    /// A descriptor that becomes readable when process `pid` exits (pidfd_open, Linux 5.3).
    public static func processExit(of pid: Int32) throws(Errno) -> FileDescriptor {
        let fd = cposix_pidfd_open(pid)
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(owning: fd)
    }

    /// ftruncate(2).
    public func truncate(to size: Int) throws(Errno) {
        _ = try retryingInterrupts { ftruncate(descriptor.rawValue, off_t(size)) }.get()
    }

    /// Seals the file against shrinking (memfd only); false when the kernel does not support seals.
    @discardableResult
    public func sealAgainstShrinking() -> Bool {
        cposix_seal_shrink(descriptor.rawValue) == 0
    }

    /// Maps `size` bytes of the file shared, readable and writable.
    public func mapShared(size: Int) throws(Errno) -> UnsafeMutableRawPointer {
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, 0),
              address != MAP_FAILED else { throw Errno.current }
        return address
    }
}

/// Unmaps what `FileDescriptor.mapShared` mapped.
public func unmap(_ address: UnsafeMutableRawPointer, size: Int) {
    munmap(address, size)
}

/// The environment variable `name`, or nil when unset or empty.
public func environmentVariable(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}

/// How many descriptors this process may have open (the soft `RLIMIT_NOFILE`, `ulimit -n`); nil
/// when unlimited or unknown.
public func openDescriptorLimit() -> Int? {
    softLimit(RLIMIT_NOFILE)
}

/// How many bytes of address space this process may map (the soft `RLIMIT_AS`, `ulimit -v` in
/// KiB); nil when unlimited or unknown.
public func addressSpaceLimit() -> Int? {
    softLimit(RLIMIT_AS)
}

private func softLimit(_ resource: __rlimit_resource) -> Int? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
        return nil
    }
    return Int(clamping: limit.rlim_cur)
}
