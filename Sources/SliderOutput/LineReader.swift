import Posix

/// What `LineReader.read()` found.
public enum LineEvent: Equatable, Sendable {
    /// A complete line without its `\n` (a final line without newline at EOF counts too).
    /// Invalid UTF-8 is replaced by U+FFFD.
    case line(String)
    /// A line longer than the limit: reported once, with its first bytes, as soon as it is seen;
    /// the rest of it is discarded up to its newline.
    case overlong(prefix: String)
    /// The writer closed its end. Nothing more will come.
    case endOfFile
}

/// Splits what arrives on a descriptor (stdin) into lines, without blocking the event loop.
///
/// Wiring: put the descriptor in the poll set with POLLIN; on POLLIN (or POLLHUP) call `read()` once.
/// It makes exactly one read(2), so it works on a blocking descriptor too: after poll reported it
/// readable, one read returns what is there without waiting. Stdin is therefore never switched to
/// O_NONBLOCK (its open file is often shared with the shell). After `.endOfFile`, remove it from the
/// poll set.
public final class LineReader {
    /// The descriptor read from (not owned: never closed).
    public let descriptor: Descriptor
    /// The longest line accepted, in bytes, not counting the newline or a trailing CR.
    public let maxLineLength: Int

    private var line: [UInt8] = []
    private var discarding = false
    private var atEnd = false
    private let chunk: UnsafeMutableRawBufferPointer

    /// Reads lines of at most `maxLineLength` bytes from `fileDescriptor` (stdin by default).
    public init(fileDescriptor: Int32 = 0, maxLineLength: Int = 256) {
        descriptor = Descriptor(fileDescriptor)
        self.maxLineLength = maxLineLength
        chunk = .allocate(byteCount: 4096, alignment: 1)
        line.reserveCapacity(maxLineLength + 1)
    }

    deinit { chunk.deallocate() }

    /// One read(2); the lines it completed, in order. Empty when nothing was there (EAGAIN).
    public func read() throws(SystemError) -> [LineEvent] {
        if atEnd { return [.endOfFile] }
        let count: Int
        do throws(Errno) {
            count = try descriptor.read(into: chunk)
        } catch .wouldBlock {
            return []
        } catch {
            throw error.error("read from \(descriptor)")
        }
        if count == 0 {
            atEnd = true
            return finishAtEndOfFile()
        }
        return split(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
    }

    /// Feeds bytes as if read; used by `read()` and by tests.
    func split(_ bytes: UnsafeRawBufferPointer) -> [LineEvent] {
        var events: [LineEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !discarding { events.append(.line(decodedLine())) }
                discarding = false
                line.removeAll(keepingCapacity: true)
            } else if !discarding {
                line.append(byte)
                // One byte of slack for the CR of a CRLF line ending.
                if line.count > maxLineLength + 1 || (line.count == maxLineLength + 1 && byte != UInt8(ascii: "\r")) {
                    events.append(.overlong(prefix: decodedLine()))
                    discarding = true
                    line.removeAll(keepingCapacity: true)
                }
            }
        }
        return events
    }

    private func finishAtEndOfFile() -> [LineEvent] {
        var events: [LineEvent] = []
        if !line.isEmpty && !discarding { events.append(.line(decodedLine())) }
        line.removeAll()
        return events + [.endOfFile]
    }

    private func decodedLine() -> String {
        let withoutCR = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
        return String(decoding: withoutCR, as: UTF8.self)
    }
}
