import Glibc
import Posix
import Testing

/// A pipe for a test; both ends close-on-exec.
private func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
}

@Suite struct DescriptorTests {
    @Test func ownedDescriptorClosesExactlyOnce() throws {
        let raw: Int32
        do {
            let file = try FileDescriptor.open("/dev/null", O_RDONLY)
            raw = file.rawValue
            #expect(file.descriptor.isOpen)
            #expect(fcntl(raw, F_GETFD) & FD_CLOEXEC != 0, "every descriptor wlslider opens is close-on-exec")
        }
        #expect(!Descriptor(raw).isOpen, "closed when its owner went away")
        let released: Int32 = try FileDescriptor.open("/dev/null", O_RDONLY).release()
        #expect(Descriptor(released).isOpen, "release hands the number over without closing it")
        close(released)
    }

    @Test func resourceLimitsAreTheSoftLimits() {
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let expected: Int? = limit.rlim_cur == rlim_t.max ? nil : Int(limit.rlim_cur)
        #expect(openDescriptorLimit() == expected)
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0)
        #expect(addressSpaceLimit() == (limit.rlim_cur == rlim_t.max ? nil : Int(limit.rlim_cur)))
        // (Not lowered here to see it follow: the limit is the whole test process's, and tests
        // running alongside would run out. The e2e check runs wlslider under a lowered one.)
    }

    @Test func errnoHasOneFormat() {
        #expect(Errno.noSpace.description == "No space left on device (errno 28)")
        #expect(Errno.brokenPipe.error("write to fd 1").description == "write to fd 1: Broken pipe (errno 32)")
        #expect(Errno(9999).description.hasSuffix("(errno 9999)"))
    }

    /// A pipe gets a private, non-blocking description of its own: the inherited one keeps its
    /// flags, writes never block, and a full pipe says so.
    @Test func pipeOutputIsReopenedPrivately() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        let flags = fcntl(writeEnd, F_GETFL)
        let output = PrivateOutput(Descriptor(writeEnd))
        #expect(output.mode == .reopened)
        #expect(output.pollDescriptor != Descriptor(writeEnd))
        #expect(fcntl(writeEnd, F_GETFL) == flags)
        let block = [UInt8](repeating: 1, count: 65536)
        var total = 0
        var full = false
        while !full && total < 1 << 22 {
            do throws(Errno) {
                total += try block.withUnsafeBytes { bytes in Result { () throws(Errno) in try output.write(bytes) } }.get()
            } catch {
                #expect(error == .wouldBlock)
                full = true
            }
        }
        #expect(full, "a full pipe reports EAGAIN instead of blocking")
        #expect(!output.waitUntilWritable(timeoutMilliseconds: 10))
        #expect(fcntl(writeEnd, F_GETFL) == flags)
    }

    /// A pipe whose reader left before: every write is EPIPE, never a crash. (A named FIFO cannot
    /// even be reopened for writing then.)
    @Test func pipeWithoutReaderGivesBrokenPipe() throws {
        ignoreBrokenPipeSignal()  // as wlslider does: EPIPE instead of death
        let (readEnd, writeEnd) = makePipe()
        close(readEnd)
        defer { close(writeEnd) }
        let output = PrivateOutput(Descriptor(writeEnd))
        let result = [UInt8(1)].withUnsafeBytes { bytes in Result { () throws(Errno) in try output.write(bytes) } }
        #expect(throws: Errno.brokenPipe) { try result.get() }

        let fifo = "/tmp/wlslider-posix-fifo-\(getpid())"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let reader = try FileDescriptor.open(fifo, O_RDONLY | O_NONBLOCK)
        let writer = try FileDescriptor.open(fifo, O_WRONLY | O_NONBLOCK)
        reader.close()
        let named = PrivateOutput(writer.descriptor)
        #expect(named.mode == .readerGone)
        let namedResult = [UInt8(1)].withUnsafeBytes { bytes in Result { () throws(Errno) in try named.write(bytes) } }
        #expect(throws: Errno.brokenPipe) { try namedResult.get() }
    }

    @Test func regularFilesAndSocketsKeepTheirDescriptor() throws {
        let path = "/tmp/wlslider-posix-test-\(getpid())"
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT, mode: 0o600)
        unlink(path)
        #expect(PrivateOutput(file.descriptor).mode == .blockingFile)
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let socket = PrivateOutput(Descriptor(pair[0]))
        #expect(socket.mode == .socket)
        #expect(fcntl(pair[0], F_GETFL) & O_NONBLOCK == 0)
        let written = "x".utf8.withContiguousStorageIfAvailable { UnsafeRawBufferPointer($0) }.map { bytes in
            Result { () throws(Errno) in try socket.write(bytes) }
        }
        #expect((try? written?.get()) == 1)
    }

    @Test func fullDeviceReportsNoSpace() {
        let output = PrivateOutput(Descriptor((try? FileDescriptor.open("/dev/full", O_WRONLY).release()) ?? -1))
        defer { close(output.original.rawValue) }
        #expect(output.mode == .reopened)
        let result = [UInt8(1)].withUnsafeBytes { bytes in Result { () throws(Errno) in try output.write(bytes) } }
        #expect(throws: Errno.noSpace) { try result.get() }
    }

    /// After an ICMP "port unreachable", a connected UDP socket reports POLLERR until its error is
    /// read; `takePendingError` reads it, and POLLERR is gone.
    @Test func refusedDatagramLeavesAnErrorThatCanBeTaken() throws {
        // Port 9 (discard) on loopback: nothing listens there in the test environment.
        guard case .success(let address) = SocketAddress.resolveUDP(host: "127.0.0.1", port: 9) else {
            Issue.record("cannot resolve 127.0.0.1")
            return
        }
        let socket = try UDPSocket(connectedTo: address)
        try [UInt8(0)].withUnsafeBytes { bytes in try Result { () throws(Errno) in try socket.send(bytes) }.get() }
        var events: PollEvents = []
        for _ in 0..<100 where !events.contains(.error) {
            events = try socket.descriptor.poll([], timeoutMilliseconds: 10)
        }
        #expect(events.contains(.error), "the refusal shows as POLLERR")
        #expect(socket.takePendingError() == .connectionRefused)
        #expect(try socket.descriptor.poll([], timeoutMilliseconds: 0).isEmpty, "and is gone once read")
        #expect(socket.takePendingError() == nil)
    }

    @Test func childProcessIsWaitedForWithATimeout() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        let quick = try ChildProcess(spawning: ["sh", "-c", "exit 3"], standardOutput: Descriptor(writeEnd))
        #expect(quick.exitDescriptor != nil, "pidfds exist on this kernel")
        #expect(try quick.wait(timeoutMilliseconds: 5000) == .exited(3))
        let slow = try ChildProcess(spawning: ["sleep", "5"], standardOutput: Descriptor(writeEnd))
        let started = MonotonicInstant.now()
        #expect(try slow.wait(timeoutMilliseconds: 100) == nil)
        #expect(MonotonicInstant.now().nanoseconds(since: started) < 3_000_000_000)
        kill(slow.pid, SIGKILL)
        #expect(try slow.wait(timeoutMilliseconds: 5000) == .signalled(SIGKILL))
        #expect(throws: Errno.self) { try ChildProcess(spawning: ["/nonexistent/program"], standardOutput: Descriptor(writeEnd)) }
    }

    /// Children inherit nothing from 3 up, even a descriptor without close-on-exec.
    @Test func childrenInheritOnlyStandardDescriptors() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd) }
        let leaky = open("/dev/null", O_RDONLY)  // no O_CLOEXEC on purpose
        defer { close(leaky) }
        let child = try ChildProcess(spawning: ["sh", "-c", "ls /proc/self/fd | wc -l"], standardOutput: Descriptor(writeEnd))
        close(writeEnd)
        #expect(try child.wait(timeoutMilliseconds: 5000) == .exited(0))
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(readEnd, &buffer, buffer.count)
        let count = Int(String(decoding: buffer[0..<max(n, 0)].filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: " ") }, as: UTF8.self))
        // 0, 1, 2 and the one `ls` opens for /proc/self/fd.
        #expect(count == 4, "the child saw \(count.map(String.init) ?? "?") descriptors")
    }
}
