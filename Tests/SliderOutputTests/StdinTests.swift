import Glibc
import Testing
@testable import SliderOutput

@Suite struct StdinCommandParserTests {
    @Test(arguments: [
        ("42", StdinCommand.setTarget(42)), ("  0.5\r", .setTarget(0.5)), ("\t1e2 ", .setTarget(100)),
        ("+5", .adjustTarget(by: 5)), ("-2.5", .adjustTarget(by: -2.5)), ("set -5", .setTarget(-5)),
        ("min -10", .setMinimum(-10)), ("MAX  200", .setMaximum(200)), ("step 5", .setStep(5)),
        ("step 0", .setStep(nil)), ("step off", .setStep(nil)), ("quit", .quit), ("Quit\r", .quit),
    ])
    func validCommands(line: String, expected: StdinCommand) throws {
        #expect(try StdinCommandParser.parse(line).get() == expected)
    }

    @Test func emptyLinesAreNothing() throws {
        #expect(try StdinCommandParser.parse("").get() == nil)
        #expect(try StdinCommandParser.parse(" \t\r").get() == nil)
    }

    @Test(arguments: [
        ("abc", "stdin: ignored line \"abc\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        ("inf", "stdin: ignored line \"inf\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        ("nan", "stdin: ignored line \"nan\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        ("1e999", "stdin: ignored line \"1e999\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        ("0x10", "stdin: ignored line \"0x10\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        ("min", "stdin: ignored line \"min\": min takes exactly one number"),
        ("max 1 2", "stdin: ignored line \"max 1 2\": max takes exactly one number"),
        ("min nan", "stdin: ignored line \"min nan\": \"nan\" is not a finite number"),
        ("step -1", "stdin: ignored line \"step -1\": step needs a number ≥ 0 or off, got \"-1\""),
        ("quit now", "stdin: ignored line \"quit now\": quit takes no argument"),
        ("1 2", "stdin: ignored line \"1 2\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        ("say \"hi\"\u{1b}[2J", "stdin: ignored line \"say \\\"hi\\\"\\x1b[2J\": expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
        (String(repeating: "x", count: 60), "stdin: ignored line \"" + String(repeating: "x", count: 40) + "\"…: expected a number, +N, -N, set N, min X, max X, step X|off or quit"),
    ])
    func malformedLinesGiveOneLineNamingTheLine(line: String, message: String) {
        guard case .failure(let error) = StdinCommandParser.parse(line) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(error.description == message)
        #expect(!error.description.contains("\n"))
    }
}

@Suite struct LineReaderTests {
    @Test func splitsLinesAcrossReadsAndHandlesCRLFAndEndOfFile() throws {
        let pipe = Pipe()
        let reader = LineReader(fileDescriptor: pipe.readEnd)
        pipe.write("42\r\n+5\nmi")
        #expect(try reader.read() == [.line("42"), .line("+5")])
        pipe.write("n 3\n")
        #expect(try reader.read() == [.line("min 3")])
        pipe.write("quit")
        close(pipe.writeEnd)
        #expect(try reader.read() == [])  // "quit" has no newline yet: not a line
        #expect(try reader.read() == [.line("quit"), .endOfFile])
        #expect(try reader.read() == [.endOfFile])
        close(pipe.readEnd)
    }

    @Test func overlongLineIsReportedOnceAndDiscardedUpToItsNewline() throws {
        let pipe = Pipe()
        let reader = LineReader(fileDescriptor: pipe.readEnd, maxLineLength: 16)
        pipe.write("0123456789abcdefXYZ")
        #expect(try reader.read() == [.overlong(prefix: "0123456789abcdefX")])
        pipe.write(String(repeating: "y", count: 100))
        #expect(try reader.read() == [])
        pipe.write("zz\n7\n")
        #expect(try reader.read() == [.line("7")])
        // Exactly the limit, with CRLF, is fine.
        pipe.write("0123456789abcdef\r\n")
        #expect(try reader.read() == [.line("0123456789abcdef")])
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }

    @Test func overlongWarningNamesTheLineStart() {
        let error = StdinCommandError.overlong(prefix: String(repeating: "9", count: 257), limit: 256)
        #expect(error.description == "stdin: ignored line \"" + String(repeating: "9", count: 40) + "\"…: longer than 256 bytes")
    }

    @Test func nonBlockingDescriptorWithNothingToReadGivesNoEvents() throws {
        let pipe = Pipe()
        _ = fcntl(pipe.readEnd, F_SETFL, O_NONBLOCK)
        let reader = LineReader(fileDescriptor: pipe.readEnd)
        #expect(try reader.read() == [])
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }
}

@Suite struct StdoutSinkTests {
    init() { signal(SIGPIPE, SIG_IGN) }

    @Test func writesWholeLinesToTheReader() {
        let pipe = Pipe()
        let sink = StdoutSink(fileDescriptor: pipe.writeEnd)
        var formatter = LineFormatter(format: .standard)
        for value in [0.0, 12.5, 12.5, 99.999] {
            if let line = formatter.line(for: ValueSample(time: 0, value: value, phase: .idle), range: SliderRange(min: 0, max: 100)) {
                #expect(sink.write(line) == .delivered)
            }
        }
        #expect(String(decoding: pipe.drain(), as: UTF8.self) == "0.00\n12.50\n100.00\n")
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }

    /// A reader that does not read: the sink never blocks, keeps whole lines, drops the middle
    /// ones past its limit, warns once, and delivers the newest value when the reader catches up.
    @Test func slowReaderNeverBlocksAndStillGetsTheNewestValue() {
        let pipe = Pipe()
        _ = fcntl(pipe.writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
        let sink = StdoutSink(fileDescriptor: pipe.writeEnd, maxPendingBytes: 1000)
        var sawWaiting = false
        for index in 0..<2000 {
            let status = sink.write("value number \(index)\n")
            sawWaiting = sawWaiting || status == .waitingForWritable
        }
        #expect(sawWaiting && sink.wantsWritable)
        #expect(sink.droppedLines > 0)
        let warnings = sink.takeWarnings()
        #expect(warnings.count == 1 && warnings[0].hasPrefix("stdout: the reader is too slow; dropped"))
        var received: [UInt8] = []
        for _ in 0..<100 where sink.wantsWritable {
            received += pipe.drain()
            _ = sink.flush()
        }
        received += pipe.drain()
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("value number ") && Int($0.dropFirst(13)) != nil })
        #expect(lines.dropLast().last == "value number 1999")
        #expect(lines.count - 1 + sink.droppedLines == 2000)
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }

    @Test func closedReaderIsReportedAsReaderClosed() {
        let pipe = Pipe()
        close(pipe.readEnd)
        let sink = StdoutSink(fileDescriptor: pipe.writeEnd)
        #expect(sink.write("1.00\n") == .readerClosed)
        #expect(sink.write("2.00\n") == .readerClosed)
        #expect(!sink.wantsWritable)
        close(pipe.writeEnd)
    }

    /// A line longer than the pipe takes at once, written while nothing waits: the kernel takes
    /// part of it, the rest waits for the reader, and the reader gets the whole line once.
    @Test func aLineThePipeTakesOnlyPartOfIsCompletedLater() {
        let pipe = Pipe()
        _ = fcntl(pipe.writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
        let sink = StdoutSink(fileDescriptor: pipe.writeEnd)
        let long = String(repeating: "7", count: 6000) + "\n"
        #expect(sink.write(long) == .waitingForWritable)
        #expect(sink.wantsWritable)
        var received = pipe.drain()
        #expect(received.count > 0 && received.count < 6001, "the kernel took part of the line at once")
        #expect(sink.flush() == .delivered)
        #expect(!sink.wantsWritable)
        #expect(sink.write("8.00\n") == .delivered)
        received += pipe.drain()
        let whole = String(decoding: received, as: UTF8.self) == long + "8.00\n"
        #expect(whole, "the reader must get the long line whole, then the next (got \(received.count) bytes)")
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }

    /// A full pipe when a line comes: the whole line waits (none of it was written) and goes out,
    /// in order, when the reader makes room.
    @Test func aLineThatFindsThePipeFullWaitsWhole() {
        let pipe = Pipe()
        _ = fcntl(pipe.writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
        let fill = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        _ = fcntl(pipe.writeEnd, F_SETFL, fcntl(pipe.writeEnd, F_GETFL) | O_NONBLOCK)
        #expect(fill.withUnsafeBytes { Glibc.write(pipe.writeEnd, $0.baseAddress, $0.count) } == 4096)
        _ = fcntl(pipe.writeEnd, F_SETFL, fcntl(pipe.writeEnd, F_GETFL) & ~O_NONBLOCK)
        let sink = StdoutSink(fileDescriptor: pipe.writeEnd)
        #expect(sink.write("1.00\n") == .waitingForWritable)
        #expect(sink.write("2.00\n") == .waitingForWritable)
        #expect(pipe.drain() == fill)
        #expect(sink.flush() == .delivered)
        #expect(String(decoding: pipe.drain(), as: UTF8.self) == "1.00\n2.00\n")
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }

    /// A full disk: the first line fails with one message naming the error, and the sink ends.
    @Test func aFullDiskEndsTheSinkWithTheError() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        let sink = StdoutSink(fileDescriptor: full)
        guard case .failed(let error) = sink.write("1.00\n") else {
            Issue.record("a write to /dev/full must fail")
            return
        }
        #expect("\(error)".contains("stdout: write to"))
        #expect("\(error)".contains("No space left on device"))
        #expect(sink.write("2.00\n") == .readerClosed)
        #expect(!sink.wantsWritable && sink.pollDescriptor == nil)
    }

    /// O_NONBLOCK belongs to the open file description that the shell, the rest of a pipeline and
    /// `--exec` children share: the sink writes through a private one and leaves the flags alone,
    /// yet a full pipe still never blocks it.
    @Test func neverChangesTheDescriptorsFlagsAndNeverBlocks() {
        let pipe = Pipe()
        let flags = fcntl(pipe.writeEnd, F_GETFL)
        #expect(flags & O_NONBLOCK == 0)
        let sink = StdoutSink(fileDescriptor: pipe.writeEnd, maxPendingBytes: 1 << 20)
        #expect(sink.write("5.00\n") == .delivered)
        #expect(fcntl(pipe.writeEnd, F_GETFL) == flags)
        let line = String(repeating: "9", count: 1023) + "\n"
        var status = WriteStatus.delivered
        for _ in 0..<200 where status == .delivered { status = sink.write(line) }
        #expect(status == .waitingForWritable, "a full pipe must not block the writer")
        #expect(sink.finish(timeoutMilliseconds: 50) == .waitingForWritable)
        #expect(fcntl(pipe.writeEnd, F_GETFL) == flags)
        #expect(pipe.drain().starts(with: Array("5.00\n".utf8)))
        close(pipe.writeEnd)
        close(pipe.readEnd)
    }
}
