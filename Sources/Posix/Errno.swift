// Errors of system calls: the errno value, the one way it is formatted, and the one EINTR rule.
internal import Glibc

/// An errno value. `description` is the one format every error message of wlslider uses:
/// "No such file or directory (errno 2)".
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let code: Int32

    /// Wraps an errno value.
    public init(_ code: Int32) {
        self.code = code
    }

    /// The calling thread's current errno.
    public static var current: Errno { Errno(errno) }

    /// strerror's text (glibc's messages are static strings; copied at once).
    public var message: String {
        guard let text = strerror(code) else { return "unknown error" }
        return String(cString: text)
    }

    /// "Broken pipe (errno 32)"
    public var description: String { "\(message) (errno \(code))" }

    /// The same error, with what was being attempted.
    public func error(_ operation: String) -> SystemError { SystemError(operation, self) }

    /// EAGAIN / EWOULDBLOCK: a non-blocking descriptor cannot take or give more now.
    public static let wouldBlock = Errno(EAGAIN)
    /// EINTR: a signal arrived mid-call (retried by `retryingInterrupts`, never seen by callers).
    public static let interrupted = Errno(EINTR)
    /// EPIPE: the reader closed its end.
    public static let brokenPipe = Errno(EPIPE)
    /// ECONNREFUSED: on a connected UDP socket, an ICMP "port unreachable" for an earlier datagram.
    public static let connectionRefused = Errno(ECONNREFUSED)
    /// ENOSPC: the file system is full (or `/dev/full`).
    public static let noSpace = Errno(ENOSPC)
    /// ENXIO: open(O_WRONLY | O_NONBLOCK) of a FIFO or pipe that nobody reads.
    public static let noReader = Errno(ENXIO)
    /// ETIMEDOUT.
    public static let timedOut = Errno(ETIMEDOUT)
    /// EADDRINUSE: another socket is bound to that address.
    public static let addressInUse = Errno(EADDRINUSE)
}

/// A failed system call: what was attempted (with the numbers that matter) and the errno it got.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. `write to fd 1` or `open "/tmp/a.f32" for writing`.
    public let operation: String
    /// The errno the call failed with.
    public let errno: Errno

    /// Creates an error for `operation` that failed with `errno`.
    public init(_ operation: String, _ errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    /// One line: `open "/x" for writing: No such file or directory (errno 2)`.
    public var description: String { "\(operation): \(errno)" }
}

/// Runs a system call until it does not fail with EINTR, the one place where EINTR is retried.
/// Returns the call's result, or the errno of a failure (-1).
@inline(__always)
public func retryingInterrupts<T: FixedWidthInteger>(_ call: () -> T) -> Result<T, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let code = errno
        if code != EINTR { return .failure(Errno(code)) }
    }
}
