// A child's stdout and stderr, read on a thread of their own. Reading only when a test looks
// would let a child block on a full pipe while the test's task waits for a turn on the shared
// cooperative pool (other suites' synchronous tests can hold both cores' threads for seconds),
// and a real-time writer such as --audio-out would then see a reader that fell behind.
internal import CWaylandServer
import Foundation
import Glibc
import Synchronization

final class OutputCollector: Sendable {
    private struct Buffers {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var closeStdoutRequested = false
        var stdoutClosed = false
        var stderrClosed = false
    }

    private let buffers = Mutex(Buffers())
    /// Writing a byte wakes the thread; closing it ends the thread.
    private let wakeWrite: Int32

    /// Takes ownership of the two read ends.
    init(stdout: Int32, stderr: Int32) throws {
        var fds: [Int32] = [0, 0]
        guard wlslider_pipe_cloexec(&fds) == 0 else { throw WaitTimeout(description: "pipe2 failed: errno \(errno)") }
        wakeWrite = fds[1]
        let wakeRead = fds[0]
        let thread = Thread { [self] in run(stdout: stdout, stderr: stderr, wake: wakeRead) }
        thread.name = "wlslider test output"
        thread.start()
    }

    /// Everything on stdout so far.
    var stdout: [UInt8] { buffers.withLock { $0.stdout } }
    /// Everything on stderr so far.
    var stderr: [UInt8] { buffers.withLock { $0.stderr } }
    /// True once stdout reached end of file or was closed by ``closeStdout()``.
    var stdoutClosed: Bool { buffers.withLock { $0.stdoutClosed } }
    /// True once both pipes are at their end: everything the child wrote has been read.
    var finished: Bool { buffers.withLock { $0.stdoutClosed && $0.stderrClosed } }

    /// Closes the read end of stdout (after reading what is there) and returns once it is closed.
    func closeStdout() {
        buffers.withLock { $0.closeStdoutRequested = true }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        let deadline = ContinuousClock.now + .seconds(10)
        while !stdoutClosed && ContinuousClock.now < deadline { usleep(1000) }
    }

    /// Ends the thread; it closes every descriptor it owns.
    func stop() {
        close(wakeWrite)
    }

    // MARK: The thread

    private func run(stdout: Int32, stderr: Int32, wake: Int32) {
        var out: Int32? = stdout, err: Int32? = stderr
        defer { [out, err, wake].compactMap { $0 }.forEach { close($0) } }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var polled = [out, err, wake].map { pollfd(fd: $0 ?? -1, events: Int16(POLLIN), revents: 0) }
            if poll(&polled, nfds_t(polled.count), -1) < 0 && errno != EINTR { return }
            if polled[0].revents != 0 { readAvailable(&out, into: \.stdout, chunk: &chunk) }
            if polled[1].revents != 0 { readAvailable(&err, into: \.stderr, chunk: &chunk) }
            if polled[2].revents != 0 {
                var byte: UInt8 = 0
                if read(wake, &byte, 1) <= 0 { return }  // the write end is closed: stop
            }
            if buffers.withLock({ $0.closeStdoutRequested }), let fd = out {
                readAvailable(&out, into: \.stdout, chunk: &chunk)
                close(fd)
                out = nil
            }
            let closed = (out == nil, err == nil)
            buffers.withLock { $0.stdoutClosed = closed.0; $0.stderrClosed = closed.1 }
        }
    }

    /// One read; at end of file closes the descriptor. (Readiness comes from poll, so a read
    /// never blocks: the pipe is blocking but has data or is at its end.)
    private func readAvailable(_ fd: inout Int32?, into buffer: WritableKeyPath<Buffers, [UInt8]>, chunk: inout [UInt8]) {
        guard let open = fd else { return }
        let n = read(open, &chunk, chunk.count)
        if n > 0 {
            buffers.withLock { $0[keyPath: buffer] += chunk[0..<n] }
        } else if n == 0 || errno != EINTR && errno != EAGAIN {
            close(open)
            fd = nil
        }
    }
}
