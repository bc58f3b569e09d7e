import Posix

/// What happened to the bytes handed to a writer.
public enum WriteStatus: Equatable, Sendable {
    /// Everything handed over so far has been written.
    case delivered
    /// Some bytes wait because the reader is slow: poll for POLLOUT, then call `flush()`.
    case waitingForWritable
    /// The reader closed its end (EPIPE, or POLLERR/POLLHUP on the descriptor). Nothing more will
    /// be written. SIGPIPE must be ignored by the app, or the process dies before this is reported.
    case readerClosed
    /// Another write error (ENOSPC on a full disk, EIO): nothing more will be written; the message
    /// names the descriptor and errno.
    case failed(SystemError)

    /// True when the sink will write nothing more.
    public var isFinal: Bool {
        switch self {
        case .delivered, .waitingForWritable: false
        case .readerClosed, .failed: true
        }
    }
}

/// The stdout sink: writes whole lines to a descriptor (fd 1 by default), handling partial writes
/// and EAGAIN without ever blocking the event loop, and without changing the descriptor's flags
/// (see `PrivateOutput`: a pipe or terminal gets a private non-blocking description, so a paused
/// terminal or a slow reader never blocks wlslider, and nobody else sharing fd 1 sees O_NONBLOCK).
///
/// Slow reader: at most `maxPendingBytes` wait; past that, queued whole lines are dropped except the
/// newest (a line being written is always completed, so the reader never sees a torn line), and one
/// warning says so. The newest value therefore always gets through once the reader catches up.
///
/// The end: a reader that leaves (EPIPE, or POLLERR/POLLHUP while idle) makes every later call
/// return `.readerClosed`; any other write error (ENOSPC, EIO) `.failed` once, then `.readerClosed`.
public final class StdoutSink {
    /// How many bytes may wait for a slow reader before older lines are dropped.
    public let maxPendingBytes: Int
    /// Lines dropped because the reader was too slow, in total.
    public private(set) var droppedLines = 0

    private let output: PrivateOutput
    private var pending: [UInt8] = []
    private var sentCount = 0
    private var ended = false
    private var warnings = WarningLog()

    /// Wraps `fileDescriptor` (not owned: never closed, its flags never changed).
    public init(fileDescriptor: Int32 = 1, maxPendingBytes: Int = 64 * 1024) {
        self.maxPendingBytes = maxPendingBytes
        pending.reserveCapacity(1024)
        output = PrivateOutput(Descriptor(fileDescriptor))
    }

    /// The descriptor to poll: for POLLOUT while `wantsWritable`, and always for POLLERR/POLLHUP.
    public var pollDescriptor: Descriptor? { ended ? nil : output.pollDescriptor }

    /// True while bytes wait for the reader: add POLLOUT to the poll set.
    public var wantsWritable: Bool { !ended && sentCount < pending.count }

    /// Queues `line` (which should end in `\n`) and writes as much as the reader takes now.
    public func write(_ line: String) -> WriteStatus {
        write(Array(line.utf8))
    }

    /// Queues the bytes of `line` (which should end in `\n`) and writes as much as the reader
    /// takes now. Allocates nothing while the queue's storage suffices.
    public func write(_ line: [UInt8]) -> WriteStatus {
        if ended { return .readerClosed }
        guard sentCount == pending.count else {
            // Older bytes wait for the reader: the line queues behind them.
            pending.append(contentsOf: line)
            dropOldLinesIfOverfull()
            return flush()
        }
        // Nothing waits (the common case): the line goes out from the caller's bytes, and only
        // what the reader does not take now is queued.
        let result = line.withUnsafeBytes { bytes in Result { () throws(Errno) in try output.write(bytes) } }
        switch result {
        case .success(let written) where written == line.count:
            return .delivered
        case .success(let written):
            queueAlone(line[written...])
            return flush()
        case .failure(.wouldBlock):
            queueAlone(line[...])
            return .waitingForWritable
        case .failure(let error):
            return ended(by: error)
        }
    }

    /// Makes `bytes` the whole queue (nothing waited before them).
    private func queueAlone(_ bytes: ArraySlice<UInt8>) {
        pending.removeAll(keepingCapacity: true)
        pending.append(contentsOf: bytes)
        sentCount = 0
    }

    /// Resolves what poll reported: POLLERR or POLLHUP on an output means the reader is gone (a
    /// pipe without readers, a hung-up terminal); POLLOUT writes what waits.
    public func handle(_ events: PollEvents) -> WriteStatus {
        if ended { return .readerClosed }
        if !events.isDisjoint(with: [.error, .hangup, .invalid]) {
            ended = true
            return .readerClosed
        }
        return flush()
    }

    /// Writes pending bytes until done or the reader stops taking them. Call on POLLOUT.
    public func flush() -> WriteStatus {
        guard !ended else { return .readerClosed }
        while sentCount < pending.count {
            let result = pending.withUnsafeBytes { bytes in
                Result { () throws(Errno) in try output.write(UnsafeRawBufferPointer(rebasing: bytes[sentCount...])) }
            }
            do throws(Errno) {
                sentCount += try result.get()
            } catch .wouldBlock {
                compactIfMostlySent()
                return .waitingForWritable
            } catch {
                return ended(by: error)
            }
        }
        pending.removeAll(keepingCapacity: true)
        sentCount = 0
        return .delivered
    }

    /// A write failed for good: the reader left (EPIPE), or another error (ENOSPC, EIO).
    private func ended(by error: Errno) -> WriteStatus {
        ended = true
        if error == .brokenPipe { return .readerClosed }
        return .failed(error.error("stdout: write to \(output.original)"))
    }

    /// The shutdown path (SIGTERM, quit, close): waits up to `timeoutMilliseconds` in all for a slow
    /// reader (or a paused terminal) to take what is pending.
    public func finish(timeoutMilliseconds: Int32 = 500) -> WriteStatus {
        let deadline = MonotonicInstant.now().advanced(byMilliseconds: Double(timeoutMilliseconds))
        var status = flush()
        while status == .waitingForWritable {
            let left = EventLoop.pollTimeout(now: .now(), deadline: deadline)
            guard left > 0, output.waitUntilWritable(timeoutMilliseconds: left) else { return status }
            status = flush()
        }
        return status
    }

    /// Warnings (one line each) produced since the last call; print them on stderr.
    public func takeWarnings() -> [String] { warnings.take() }
    /// Whether `takeWarnings` has any to hand over (a cheap look, once a frame).
    public var hasWarnings: Bool { warnings.hasQueued }

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
}
