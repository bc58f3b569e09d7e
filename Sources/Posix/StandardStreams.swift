// fd 0, 1 and 2: made safe to use at start, and written to without touching their shared flags.
internal import Glibc

/// Opens `/dev/null` on each of fd 0, 1 and 2 that is closed. Call first thing in `main`, before
/// any other descriptor exists: otherwise the next `open`, socket or memfd gets number 0, 1 or 2,
/// and a value line or a warning would be written into it (the Wayland socket, say), or a read
/// of "stdin" would block on it. Returns the numbers it opened.
@discardableResult
public func openClosedStandardDescriptors() -> [Int32] {
    var opened: [Int32] = []
    for fd: Int32 in 0...2 where !Descriptor(fd).isOpen {
        // open returns the lowest free number, which is `fd` (the ones below it are open by now).
        let flags = fd == 0 ? O_RDONLY : O_WRONLY
        guard case .success(let got) = retryingInterrupts({ Glibc.open("/dev/null", flags) }) else { continue }
        if got != fd {
            _ = dup2(got, fd)
            _ = Glibc.close(got)
        }
        opened.append(fd)
    }
    return opened
}

/// A non-blocking writer for an inherited descriptor (stdout, stderr) that never changes the
/// descriptor's file status flags.
///
/// O_NONBLOCK is a flag of the *open file description*, which the shell, the other processes of
/// a pipeline and `--exec` children share: setting it on fd 1 would make their writes fail with
/// EAGAIN. So the writer gets a private description of the same file where it can:
/// - a pipe, FIFO, terminal or character device is reopened through `/proc/self/fd/N` with
///   O_NONBLOCK (a new description of the same pipe or terminal, O_APPEND kept);
/// - a socket is written with `send(MSG_DONTWAIT)`, which does not block whatever its flags;
/// - a regular file or block device keeps blocking writes on the inherited descriptor: they never
///   wait for a reader (and a private description would not share the file offset).
/// Where `/proc` is missing, writes stay blocking and are cut to PIPE_BUF after a `poll` said
/// the descriptor was writable, so they cannot block either.
public final class PrivateOutput {
    /// How writes are made.
    public enum Mode: Equatable, Sendable {
        /// A private non-blocking description (`pollDescriptor` is it).
        case reopened
        /// `send(MSG_DONTWAIT)` on the inherited socket.
        case socket
        /// Blocking writes on a regular file or block device.
        case blockingFile
        /// Blocking writes of at most PIPE_BUF after a zero-timeout poll (no `/proc`).
        case pollGuarded
        /// A pipe whose reader had gone before it could be reopened: every write fails with EPIPE.
        case readerGone
    }

    /// The inherited descriptor.
    public let original: Descriptor
    /// How writes are made.
    public let mode: Mode
    /// The descriptor to poll for POLLOUT (and POLLERR/POLLHUP: the reader went away).
    public let pollDescriptor: Descriptor
    private let reopened: FileDescriptor?

    /// Prepares writing to `original`.
    public init(_ original: Descriptor) {
        self.original = original
        let kind = (try? original.kind()) ?? .unknown
        switch kind {
        case .regular, .blockDevice, .directory:
            mode = .blockingFile
            reopened = nil
            pollDescriptor = original
        case .socket:
            mode = .socket
            reopened = nil
            pollDescriptor = original
        case .fifo, .characterDevice, .symbolicLink, .unknown:
            let append = ((try? original.statusFlags()) ?? 0) & O_APPEND
            do throws(Errno) {
                let file = try FileDescriptor.open("/proc/self/fd/\(original.rawValue)",
                                                   O_WRONLY | O_NONBLOCK | O_NOCTTY | append)
                pollDescriptor = file.descriptor
                reopened = consume file
                mode = .reopened
            } catch {
                reopened = nil
                pollDescriptor = original
                mode = error == .noReader ? .readerGone : .pollGuarded
            }
        }
    }

    /// Writes to a descriptor wlslider opened itself, non-blocking already (a file it created).
    public init(owning file: consuming FileDescriptor) {
        original = file.descriptor
        pollDescriptor = file.descriptor
        mode = .reopened
        reopened = consume file
    }

    /// Writes what the descriptor takes now: the byte count, or `Errno.wouldBlock` when it takes
    /// nothing now, `Errno.brokenPipe` when the reader is gone.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        switch mode {
        case .reopened, .blockingFile:
            return try pollDescriptor.write(bytes)
        case .socket:
            return try original.sendNonBlocking(bytes)
        case .readerGone:
            throw Errno.brokenPipe
        case .pollGuarded:
            let ready = try original.poll(.writable, timeoutMilliseconds: 0)
            if ready.contains(.error) { throw Errno.brokenPipe }
            guard ready.contains(.writable) else { throw Errno.wouldBlock }
            let count = Swift.min(bytes.count, Int(PIPE_BUF))
            return try original.write(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
        }
    }

    /// Waits up to `timeoutMilliseconds` until a write can make progress; false on timeout.
    public func waitUntilWritable(timeoutMilliseconds: Int32) -> Bool {
        guard mode != .blockingFile && mode != .readerGone else { return true }
        guard let events = try? pollDescriptor.poll(.writable, timeoutMilliseconds: timeoutMilliseconds) else { return false }
        return !events.isEmpty
    }
}

/// Writes whole diagnostic lines to stderr without ever blocking for long: through a
/// `PrivateOutput`, waiting at most `patienceMilliseconds` for a terminal that is paused
/// (Ctrl-S) or a slow reader, then dropping the rest of the line. Single-threaded use only.
public enum StandardError {
    /// How long one line may wait for stderr to take it.
    public static let patienceMilliseconds: Int32 = 100

    nonisolated(unsafe) private static var output: PrivateOutput?

    /// Writes `line` (which should end in a newline).
    public static func write(_ line: String) {
        guard let output = prepared() else { return }
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                do throws(Errno) {
                    offset += try output.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset...])))
                } catch .wouldBlock {
                    guard output.waitUntilWritable(timeoutMilliseconds: patienceMilliseconds) else { return }
                } catch {
                    return
                }
            }
        }
    }

    private static func prepared() -> PrivateOutput? {
        if let output { return output }
        let created = PrivateOutput(.standardError)
        output = created
        return created
    }
}
