// Signals as a descriptor: SIGINT and SIGTERM are blocked and read from a signalfd, so they arrive
// as events in the poll loop (or end a wait while connecting), never in the middle of a call.
internal import CPosix
internal import Glibc

/// A signalfd for a set of signals, which are blocked for the calling thread. Create it before any
/// thread starts, so no other thread receives them instead.
public struct SignalDescriptor: ~Copyable {
    /// The signalfd (non-blocking, close-on-exec).
    public let file: FileDescriptor

    /// Blocks `signals` and opens a signalfd reporting them.
    public init(blocking signals: [Int32]) throws(SystemError) {
        let fd = signals.withUnsafeBufferPointer { cposix_signalfd_block($0.baseAddress, Int32($0.count)) }
        guard fd >= 0 else { throw Errno.current.error("signalfd for signals \(signals)") }
        file = FileDescriptor(owning: fd)
    }

    /// The descriptor: readable while a signal is pending.
    public var descriptor: Descriptor { file.descriptor }

    /// The next pending signal, or nil when none is.
    public func take() -> Int32? {
        let signal = cposix_signalfd_read(file.rawValue)
        return signal > 0 ? signal : nil
    }
}

/// The signals that end wlslider cleanly: SIGINT (Ctrl-C) and SIGTERM.
public let terminationSignals: [Int32] = [SIGINT, SIGTERM]

/// Ignores SIGPIPE, so a write to a pipe without a reader fails with EPIPE instead of killing the
/// process: every sink handles EPIPE itself.
public func ignoreBrokenPipeSignal() {
    signal(SIGPIPE, SIG_IGN)
}
