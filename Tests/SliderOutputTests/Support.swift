// Helpers for the SliderOutput tests: child processes, pipes, temporary files, a clock.
// Tests may use Foundation, but these need little more than Glibc.
import Foundation
import Glibc

/// Monotonic seconds.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Unix time in seconds (CLOCK_REALTIME).
func wallClockNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func sleepSeconds(_ seconds: Double) {
    usleep(UInt32(seconds * 1_000_000))
}

/// A fresh temporary directory, removed by the caller with `removeTree`.
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/slideroutput-test-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!
    return String(cString: path)
}

func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

func readFile(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}

func readText(_ path: String) -> String { String(decoding: readFile(path), as: UTF8.self) }

/// Polls `condition` every 10 ms for up to `timeout` seconds.
@discardableResult
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A pipe; both ends close-on-exec.
struct Pipe {
    let readEnd: Int32
    let writeEnd: Int32
    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Reads whatever is available without blocking (sets O_NONBLOCK on the read end).
    func drain() -> [UInt8] {
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(writeEnd, &bytes, bytes.count)
    }
}

/// A child process started by a test (never through a shell), stdout and stderr into a file.
final class TestProcess {
    let pid: pid_t

    init(_ arguments: [String], outputPath: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Swift Testing's worker threads block signals; without resetting the mask the child would
        // inherit that and never see our SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, environ)
        cArguments.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        precondition(status == 0, "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        self.pid = pid
    }

    /// Sends SIGTERM (SIGKILL after 2 s) and reaps the child.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        if !waitUntil(timeout: 2, { waitpid(pid, &status, WNOHANG) == pid }) {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
    }
}

/// A UDP port that was free a moment ago (bound to port 0, read back, closed).
/// A UDP port free right now, from below the kernel's ephemeral range (32768 and up): a port
/// found by binding port 0 is from that range, and may be handed to another test's connected UDP
/// socket before the receiver binds it; below it only another receiver can collide.
func freeUDPPort() -> UInt16 {
    while true {
        let port = UInt16.random(in: 20_000...32_000)
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if bound { return port }
    }
}
