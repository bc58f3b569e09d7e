// Child processes for the measurements: started with posix_spawn (so the time taken just before
// the spawn is "exec") and observed through /proc while they run.
//
// Peak RSS is read from /proc/PID/status (VmHWM) while the child runs, not from wait4's
// ru_maxrss: glibc's posix_spawn runs the child in the parent's address space until exec, and
// the kernel folds that address space's high-water mark into the child's ru_maxrss at exec, so
// the child would inherit the bench's own peak (`/usr/bin/time` forks from a tiny process, which
// is why its %M is right there).
import Glibc
import TestCompositor

/// A client started for a measurement. Its standard input can be a pipe held open by the bench
/// (an idle stdin, or commands), its standard output a pipe the bench reads.
final class MeasuredProcess {
    let pid: pid_t
    let name: String
    /// CLOCK_REALTIME just before the spawn, in microseconds (WAYLAND_DEBUG stamps use this clock).
    let spawnRealtimeMicroseconds: UInt64
    /// CLOCK_MONOTONIC just before the spawn, in seconds.
    let spawnMonotonic: Double
    private var stdinWrite: Int32
    private let stdoutRead: Int32
    private var output: [UInt8] = []
    private(set) var exitStatus: Int32?
    /// The last /proc/PID/status memory figures read by ``watchMemory()``.
    private(set) var memory = MemoryFigures()

    enum Stream { case null, pipe }

    /// Starts `command` (looked up in PATH) with the bench's environment plus `environment`.
    /// Standard error goes to `stderrPath` (created or truncated), or to /dev/null.
    init(_ command: [String], environment: [String: String] = [:], stdin: Stream = .null, stdout: Stream = .null,
         stderrPath: String? = nil) throws(BenchError) {
        name = command[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let input = try Self.pipePair(stdin == .pipe, childEnd: 0, readEnd: true, &actions)
        let outputPipe = try Self.pipePair(stdout == .pipe, childEnd: 1, readEnd: false, &actions)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = command.map { strdup($0) } + [nil]
        let envp = mergedEnvironment(environment).map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        (spawnRealtimeMicroseconds, spawnMonotonic) = (realtimeMicroseconds(), monotonicSeconds())
        let rc = posix_spawnp(&child, command[0], &actions, nil, argv, envp)
        for fd in [input?.child, outputPipe?.child] { if let fd { close(fd) } }
        guard rc == 0 else {
            for fd in [input?.ours, outputPipe?.ours] { if let fd { close(fd) } }
            throw BenchError("starting \(command[0]): \(String(cString: strerror(rc)))")
        }
        pid = child
        stdinWrite = input?.ours ?? -1
        stdoutRead = outputPipe?.ours ?? -1
        if stdoutRead >= 0 { _ = fcntl(stdoutRead, F_SETFL, fcntl(stdoutRead, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL); wait() }
        if stdinWrite >= 0 { close(stdinWrite) }
        if stdoutRead >= 0 { close(stdoutRead) }
    }

    /// A pipe whose `childEnd` goes to the child's descriptor; nil (and /dev/null) when not wanted.
    private static func pipePair(_ wanted: Bool, childEnd: Int32, readEnd: Bool,
                                 _ actions: inout posix_spawn_file_actions_t) throws(BenchError) -> (ours: Int32, child: Int32)? {
        guard wanted else {
            posix_spawn_file_actions_addopen(&actions, childEnd, "/dev/null", readEnd ? O_RDONLY : O_WRONLY, 0)
            return nil
        }
        var fds: [Int32] = [0, 0]
        // pipe2 is not visible from Swift's Glibc; the bench starts its children from one thread,
        // so setting FD_CLOEXEC right after pipe() leaves no window for a leak.
        guard pipe(&fds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (child, ours) = readEnd ? (fds[0], fds[1]) : (fds[1], fds[0])
        posix_spawn_file_actions_adddup2(&actions, child, childEnd)
        return (ours, child)
    }

    /// Writes one line to the child's standard input.
    func send(_ line: String) {
        guard stdinWrite >= 0 else { return }
        let text = line + "\n"
        _ = text.withCString { write(stdinWrite, $0, strlen($0)) }
    }

    /// The complete lines the child has written to standard output so far.
    func outputLines() -> [String] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while stdoutRead >= 0 {
            let n = read(stdoutRead, &chunk, chunk.count)
            guard n > 0 else { break }
            output += chunk[0..<n]
        }
        return output.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    func signal(_ signal: Int32) { if exitStatus == nil { kill(pid, signal) } }

    /// Waits for the child to end (at most `timeout` seconds, then SIGKILL) and returns its wait
    /// status. Until it ends, its memory figures are read every millisecond: VmHWM only grows, so
    /// the last reading is the peak up to the last millisecond before exit.
    @discardableResult
    func wait(timeout: Double = 5) -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = monotonicSeconds() + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            watchMemory()
            if monotonicSeconds() > deadline { kill(pid, SIGKILL) }
            usleep(1000)
        }
        exitStatus = status
        return status
    }

    /// Reads the child's memory figures now (nothing once it has exited: a zombie has no memory).
    func watchMemory() {
        guard exitStatus == nil, let status = readTextFile("/proc/\(pid)/status"),
              let figures = MemoryFigures(status: status) else { return }
        memory = figures
    }

    /// Sleeps for `seconds`, reading the memory figures every 10 ms meanwhile.
    func sleepWatchingMemory(_ seconds: Double) {
        let end = monotonicSeconds() + seconds
        while monotonicSeconds() < end {
            watchMemory()
            sleepSeconds(min(0.01, max(0, end - monotonicSeconds())))
        }
        watchMemory()
    }
}

/// Memory figures of a process from /proc/PID/status, in kilobytes (KiB).
struct MemoryFigures {
    /// VmHWM: peak resident set size.
    var peak = 0
    /// RssAnon: resident anonymous memory (heap, stacks, written data).
    var anonymous = 0
    /// RssFile: resident file-backed pages (the binary's and libraries' code and read-only data).
    var file = 0
    /// RssShmem: resident shared memory (the wl_shm pool's memfd).
    var shared = 0

    init() {}

    init?(status: String) {
        var values: [Substring: Int] = [:]
        for line in status.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[line[..<colon]] = Int(line[line.index(after: colon)...].filter(\.isNumber))
        }
        guard let peak = values["VmHWM"] else { return nil }
        self.peak = peak
        anonymous = values["RssAnon"] ?? 0
        file = values["RssFile"] ?? 0
        shared = values["RssShmem"] ?? 0
    }
}

/// CPU time and scheduling counters of a running process, summed over its threads.
struct ProcessCounters: Sendable {
    /// Time on a CPU, from /proc/PID/task/*/schedstat (nanoseconds).
    var cpuNanoseconds: UInt64 = 0
    /// utime + stime from /proc/PID/task/*/stat (clock ticks, usually 10 ms: coarse).
    var cpuTicks: UInt64 = 0
    /// Times a thread blocked (in poll, read, ...) and was later woken: the wake-ups.
    var voluntarySwitches: UInt64 = 0
    /// Times a thread was preempted while runnable.
    var involuntarySwitches: UInt64 = 0

    /// Reads the counters of `pid`; nil when the process is gone.
    static func read(_ pid: pid_t) -> ProcessCounters? {
        guard let tasks = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(tasks) }
        var counters = ProcessCounters()
        while let entry = readdir(tasks) {
            let tid = directoryEntryName(entry)
            guard tid.first?.isNumber == true else { continue }
            let base = "/proc/\(pid)/task/\(tid)"
            guard let schedstat = readTextFile(base + "/schedstat"), let stat = readTextFile(base + "/stat"),
                  let status = readTextFile(base + "/status") else { return nil }
            counters.cpuNanoseconds += UInt64(schedstat.split(separator: " ").first ?? "") ?? 0
            // Fields after the command name in parentheses (which may contain spaces): utime is the 14th field.
            let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
            counters.cpuTicks += (UInt64(fields[12]) ?? 0) + (UInt64(fields[13]) ?? 0)
            counters.voluntarySwitches += statusField(status, "voluntary_ctxt_switches:")
            counters.involuntarySwitches += statusField(status, "nonvoluntary_ctxt_switches:")
        }
        return counters
    }

    private static func statusField(_ status: String, _ name: String) -> UInt64 {
        let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
        return UInt64(line.dropFirst(name.count).filter { !$0.isWhitespace }) ?? 0
    }

    static func - (a: ProcessCounters, b: ProcessCounters) -> ProcessCounters {
        ProcessCounters(cpuNanoseconds: a.cpuNanoseconds &- b.cpuNanoseconds, cpuTicks: a.cpuTicks &- b.cpuTicks,
                        voluntarySwitches: a.voluntarySwitches &- b.voluntarySwitches,
                        involuntarySwitches: a.involuntarySwitches &- b.involuntarySwitches)
    }
}

/// A failure of the measurement itself (not of the thing measured), with what failed.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `arguments` to completion with standard output and error discarded; its exit status
/// (nil when it could not start or was killed by a signal).
func runQuietly(_ arguments: [String]) -> Int32? {
    guard let process = try? MeasuredProcess(arguments) else { return nil }
    let status = process.wait(timeout: 600)
    return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
}

/// The whole content of a (small) text file, nil when it cannot be read.
func readTextFile(_ path: String, from offset: Int = 0) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard offset == 0 || lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return n == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
        bytes += chunk[0..<n]
    }
}

/// The size of the file at `path` in bytes, nil when it cannot be read.
func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func realtimeMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}

/// Sleeps for `seconds` of wall time (resuming after signals).
func sleepSeconds(_ seconds: Double) {
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// The bench's environment with `extra` added or replaced, as KEY=VALUE strings.
private func mergedEnvironment(_ extra: [String: String]) -> [String] {
    var result: [String] = []
    var entry = environ
    while let pointer = entry.pointee {
        let pair = String(cString: pointer)
        let key = pair.prefix { $0 != "=" }
        if extra[String(key)] == nil { result.append(pair) }
        entry += 1
    }
    return result + extra.map { "\($0.key)=\($0.value)" }
}
