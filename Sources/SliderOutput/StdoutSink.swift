/// What happened to the bytes handed to a writer.
public enum WriteStatus: Equatable, Sendable {
    /// Everything handed over so far has been written.
    case delivered
    /// Some bytes wait because the reader is slow: poll the descriptor for POLLOUT, then call `flush()`.
    case waitingForWritable
    /// The reader closed its end (EPIPE). Nothing more will be written. The app exits 0 quietly when
    /// no other sink is active. SIGPIPE must be ignored by the app (`signal(SIGPIPE, SIG_IGN)`),
    /// otherwise the process dies before this is ever reported.
    case readerClosed
    /// Another write error; the message names the descriptor and errno.
    case failed(SystemError)
}

/// The stdout sink: writes whole lines to a descriptor (fd 1 by default), handling partial writes
/// and EAGAIN without ever blocking the event loop.
///
/// Non-blocking mode: when fd 1 is a pipe or file, it is switched to O_NONBLOCK (and restored by
/// `finish`); when it is a terminal it is left blocking, because the terminal's open file is shared
/// with the shell and O_NONBLOCK there would make the shell's own reads fail after we exit. A
/// terminal reads fast enough that a blocking write is harmless.
///
/// Slow reader: at most `maxPendingBytes` wait; past that, queued whole lines are dropped except the
/// newest (a line being written is always completed, so the reader never sees a torn line), and one
/// warning says so. The newest value therefore always gets through once the reader catches up.
public final class StdoutSink {
    /// The descriptor written to.
    public let fileDescriptor: Int32
    /// How many bytes may wait for a slow reader before older lines are dropped.
    public let maxPendingBytes: Int
    /// Lines dropped because the reader was too slow, in total.
    public private(set) var droppedLines = 0

    private var pending: [UInt8] = []
    private var sentCount = 0
    private var closedByReader = false
    private var originalFlags: Int32?
    private var warnings = WarningLog()

    /// Wraps `fileDescriptor` (not owned: never closed). `nonBlocking: nil` means "unless it is a terminal".
    public init(fileDescriptor: Int32 = 1, nonBlocking: Bool? = nil, maxPendingBytes: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.maxPendingBytes = maxPendingBytes
        pending.reserveCapacity(1024)
        if nonBlocking ?? !Sys.isTerminal(fileDescriptor) {
            originalFlags = Sys.enableNonBlocking(fileDescriptor)
        }
    }

    deinit { restoreFlags() }

    /// True while bytes wait for the reader: add POLLOUT on `fileDescriptor` to the poll set.
    public var wantsWritable: Bool { !closedByReader && sentCount < pending.count }

    /// Queues `line` (which should end in `\n`) and writes as much as the reader takes now.
    public func write(_ line: String) -> WriteStatus {
        if closedByReader { return .readerClosed }
        pending.append(contentsOf: line.utf8)
        dropOldLinesIfOverfull()
        return flush()
    }

    /// Writes pending bytes until done or the reader stops taking them. Call on POLLOUT.
    public func flush() -> WriteStatus {
        if closedByReader { return .readerClosed }
        while sentCount < pending.count {
            let result = pending.withUnsafeBytes { Sys.write(fileDescriptor, UnsafeRawBufferPointer(rebasing: $0[sentCount...])) }
            switch result {
            case .success(let written):
                sentCount += written
            case .failure(.wouldBlock):
                compactIfMostlySent()
                return .waitingForWritable
            case .failure(.brokenPipe):
                closedByReader = true
                return .readerClosed
            case .failure(let error):
                return .failed(error.error("write to fd \(fileDescriptor)"))
            }
        }
        pending.removeAll(keepingCapacity: true)
        sentCount = 0
        return .delivered
    }

    /// The shutdown path (SIGTERM, quit, close): waits up to `timeoutMilliseconds` for a slow reader
    /// to take what is pending, then restores the descriptor's blocking mode.
    public func finish(timeoutMilliseconds: Int32 = 500) -> WriteStatus {
        defer { restoreFlags() }
        var status = flush()
        while status == .waitingForWritable {
            guard Sys.waitUntilWritable(fileDescriptor, timeoutMilliseconds: timeoutMilliseconds) else { return status }
            status = flush()
        }
        return status
    }

    /// Warnings (one line each) produced since the last call; print them on stderr.
    public func takeWarnings() -> [String] { warnings.take() }

    private func dropOldLinesIfOverfull() {
        guard pending.count - sentCount > maxPendingBytes else { return }
        let newline = UInt8(ascii: "\n")
        // A line already partly written is completed, or the reader would see a torn line.
        let atLineStart = sentCount == 0 || pending[sentCount - 1] == newline
        let keepUpTo = atLineStart ? sentCount : (pending[sentCount...].firstIndex(of: newline).map { $0 + 1 } ?? pending.count)
        // The newest line starts after the newline that precedes its own final newline.
        let newestStart = pending.dropLast().lastIndex(of: newline).map { $0 + 1 } ?? 0
        guard newestStart > keepUpTo else { return }
        let dropped = pending[keepUpTo..<newestStart].reduce(0) { $0 + ($1 == newline ? 1 : 0) }
        pending.removeSubrange(keepUpTo..<newestStart)
        warnings.once(key: "dropped", "stdout: the reader is too slow; dropped \(dropped) queued lines (more than \(maxPendingBytes) bytes waiting), kept the newest value (reported once)")
        droppedLines += dropped
    }

    /// A reader that always lags a little never lets `pending` empty completely; drop the bytes
    /// already written once they are the larger part, so the buffer cannot grow without bound.
    private func compactIfMostlySent() {
        guard sentCount > 4096, sentCount * 2 > pending.count else { return }
        pending.removeSubrange(0..<sentCount)
        sentCount = 0
    }

    private func restoreFlags() {
        guard let flags = originalFlags else { return }
        _ = Sys.setStatusFlags(fileDescriptor, flags)
        originalFlags = nil
    }
}
