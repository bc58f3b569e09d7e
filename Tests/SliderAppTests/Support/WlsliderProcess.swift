// The real wlslider binary as a child of the test: its stdin is a pipe the test writes commands
// into (or closes, for EOF), its stdout and stderr are pipes the test reads (or closes, for EPIPE).
// TestCompositor's own `launch` gives its children /dev/null as stdin, so these tests spawn
// the binary themselves and point it at the compositor through the environment.
internal import CWaylandServer
import Glibc
import TestCompositor
import Testing

/// How long any wait in these tests may take. Generous: other builds and tests share two cores,
/// and a wait ends as soon as its condition holds, so a passing test never waits this long.
let patience: Duration = .seconds(30)

/// The wlslider executable next to the test bundle (`<scratch>/debug/wlslider`), or the one
/// `WLSLIDER_UNDER_TEST` names (scripts/test runs these tests again on the release binary).
let wlsliderPath: String = {
    if let path = getenv("WLSLIDER_UNDER_TEST") { return String(cString: path) }
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    precondition(length > 0, "readlink /proc/self/exe failed")
    let exe = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let directory = exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]
    return directory + "/wlslider"
}()

/// Why a wait in these tests gave up; the message includes what the process had said so far.
struct WaitTimeout: Error, CustomStringConvertible {
    let description: String
}

/// One run of wlslider (or of another program the tests talk to the same way).
final class WlsliderProcess {
    /// The child's pid (also its process group).
    let pid: pid_t
    let arguments: [String]
    /// wlslider, or another program run the same way (the OSC receiver).
    let executable: String
    private var stdinFD: Int32?
    private let output: OutputCollector
    private var status: Int32?

    /// Starts wlslider with `arguments`. The environment is the test's, minus any Wayland
    /// connection, plus `environment` (normally a compositor's `WAYLAND_DISPLAY` and
    /// `XDG_RUNTIME_DIR`). Signal mask and dispositions are reset: the test runner's threads
    /// block signals and may ignore SIGPIPE, which the child would otherwise inherit.
    ///
    /// `redirections` are shell redirections applied as it starts (`<&-`, `>/dev/full`, `2>&1`):
    /// it then runs through `sh -c 'exec "$0" "$@" REDIRECTIONS'`, with the same pid.
    /// `unsetting` names variables of the test's environment the child must not see.
    init(_ arguments: [String], environment: [String: String], executable: String = wlsliderPath,
         redirections: String = "", unsetting: [String] = []) throws {
        self.arguments = arguments
        self.executable = executable
        let stdin = try Self.pipe(), stdout = try Self.pipe(), stderr = try Self.pipe()
        defer { [stdin.read, stdout.write, stderr.write].forEach { _ = close($0) } }
        let command = redirections.isEmpty
            ? [executable] + arguments
            : ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirections)", executable] + arguments
        do {
            pid = try Self.spawn(command, environment: Self.childEnvironment(environment, unsetting: unsetting),
                                 stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
        } catch {
            [stdin.write, stdout.read, stderr.read].forEach { _ = close($0) }
            throw error
        }
        stdinFD = stdin.write
        for fd in [stdout.read, stderr.read] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        output = try OutputCollector(stdout: stdout.read, stderr: stderr.read)
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
        if let stdinFD { close(stdinFD) }
        output.stop()
    }

    // MARK: Talking to it

    /// Writes `text` to its stdin (blocking; commands are short).
    func send(_ text: String) {
        send(bytes: Array(text.utf8))
    }

    /// Writes raw bytes to its stdin (blocking): NUL bytes, invalid UTF-8, lines of any length.
    func send(bytes: [UInt8]) {
        guard let stdinFD else { Issue.record("stdin is already closed"); return }
        var bytes = bytes[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { Issue.record("writing to wlslider's stdin failed: errno \(errno)"); return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Closes its stdin: wlslider reads end of file.
    func closeStdin() {
        if let stdinFD { close(stdinFD) }
        stdinFD = nil
    }

    /// Closes the read end of its stdout, as `wlslider | head -1` does once head is done: its next
    /// write fails with EPIPE.
    func closeStdout() {
        output.closeStdout()
    }

    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// CPU time its threads have used so far, in nanoseconds (the first field of each
    /// `/proc/PID/task/*/schedstat`).
    var cpuNanoseconds: UInt64 {
        var total: UInt64 = 0
        guard let tasks = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            let name = directoryEntryName(entry)
            guard name.first?.isNumber == true else { continue }
            let text = String(decoding: readFile("/proc/\(pid)/task/\(name)/schedstat"), as: UTF8.self)
            total += text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0
        }
        return total
    }

    /// CPU time of its main thread alone (the task whose id is the pid), in nanoseconds.
    var mainThreadCPUNanoseconds: UInt64 {
        let text = String(decoding: readFile("/proc/\(pid)/task/\(pid)/schedstat"), as: UTF8.self)
        return text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0
    }

    /// The CPU time it uses over `duration` while it should be idle, in milliseconds.
    func idleCPUMilliseconds(over duration: Duration) async throws -> Double {
        let before = cpuNanoseconds
        try await Task.sleep(for: duration)
        return Double(cpuNanoseconds - before) / 1e6
    }

    // MARK: What it said

    /// Complete lines on stdout so far.
    var stdoutLines: [String] { Self.lines(output.stdout) }

    /// Every byte on stdout so far.
    var stdoutBytes: [UInt8] { output.stdout }

    /// Everything on stdout so far.
    var stdoutText: String { String(decoding: output.stdout, as: UTF8.self) }

    /// Complete lines on stderr so far.
    var stderrLines: [String] { Self.lines(output.stderr) }

    var stderrText: String { String(decoding: output.stderr, as: UTF8.self) }

    /// True once both its output pipes are at their end.
    var isFinished: Bool { output.finished }

    /// The exit status (-signal when killed), nil while running.
    var exitCode: Int32? {
        reap()
        return status
    }

    // MARK: Waiting

    /// Waits until `condition` holds; throws with what the process said on timeout.
    func wait(for what: String, timeout: Duration = patience, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw WaitTimeout(description: "timed out after \(timeout) waiting for \(what)\n\(summary)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the stdout lines satisfy `condition`; returns them.
    @discardableResult
    func waitForLines(_ what: String, timeout: Duration = patience, _ condition: ([String]) -> Bool) async throws -> [String] {
        try await wait(for: what, timeout: timeout) { condition(stdoutLines) }
        return stdoutLines
    }

    /// Waits until the last stdout line is `line`; returns all lines.
    @discardableResult
    func waitForLastLine(_ line: String, timeout: Duration = patience) async throws -> [String] {
        try await waitForLines("the last line to be \"\(line)\"", timeout: timeout) { $0.last == line }
    }

    /// Waits for the process to end; returns its exit status (-signal when killed). Returns once
    /// its pipes are at their end, so everything it wrote is in ``stdoutLines`` and ``stderrLines``.
    @discardableResult
    func waitForExit(timeout: Duration = patience) async throws -> Int32 {
        try await wait(for: "wlslider to exit", timeout: timeout) { exitCode != nil }
        // Its last words are in the pipes: the reader has them all once both are at their end.
        try await wait(for: "the end of wlslider's output", timeout: timeout) { output.finished }
        return status!
    }

    /// Fails the test if the process ends within `duration` (it should keep running).
    func expectStillRunning(for duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if let code = exitCode {
                Issue.record("wlslider exited with \(code) but should still run\n\(summary)", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The command, status and output, for failure messages.
    var summary: String {
        "\(executable) \(arguments.joined(separator: " ")) [status \(exitCode.map(String.init) ?? "running")]\n"
            + "stdout (\(stdoutLines.count) lines, last 10): \(stdoutLines.suffix(10))\nstderr: \(stderrText)"
    }

    // MARK: Plumbing

    private func reap() {
        guard status == nil else { return }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return }
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : -signal
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // the incomplete rest after the last newline (empty when complete)
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard wlslider_pipe_cloexec(&fds) == 0 else { throw WaitTimeout(description: "pipe2 failed: errno \(errno)") }
        return (fds[0], fds[1])
    }

    private static func childEnvironment(_ extra: [String: String], unsetting: [String]) -> [String] {
        var env: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") { env[String(pair[..<eq])] = String(pair[pair.index(after: eq)...]) }
            entry += 1
        }
        for name in ["WAYLAND_SOCKET", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "WAYLAND_DEBUG"] + unsetting { env[name] = nil }
        env.merge(extra) { _, new in new }
        return env.map { "\($0.key)=\($0.value)" }
    }

    private static func spawn(_ command: [String], environment: [String], stdin: Int32, stdout: Int32, stderr: Int32) throws -> pid_t {
        do {
            return try spawnTestProcess(command, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
        } catch {
            throw WaitTimeout(description: "\(error); run `swift build` first so the executable exists")
        }
    }
}

/// A private, empty `XDG_RUNTIME_DIR` (mode 0700) and a `WAYLAND_DISPLAY` naming no socket in it:
/// a machine with no compositor. Remove `directory` when done.
func environmentWithoutCompositor() -> (environment: [String: String], directory: String) {
    let directory = makeTemporaryDirectory("no-compositor")
    return (["XDG_RUNTIME_DIR": directory, "WAYLAND_DISPLAY": "wayland-nothing-here"], directory)
}

/// A fresh temporary directory (mode 0700).
func makeTemporaryDirectory(_ label: String) -> String {
    var template = Array("/tmp/wlslider-\(label)-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!
    return String(cString: path)
}

/// Removes a directory made by ``makeTemporaryDirectory(_:)`` and the files in it (no subfolders).
func removeDirectory(_ path: String) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = directoryEntryName(entry)
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }
    rmdir(path)
}

/// Writes a file through a close-on-exec descriptor. (Foundation's writers may leave theirs
/// inheritable: a child another test spawns at that moment keeps the file open for writing, and
/// executing it then fails with ETXTBSY.)
func writeFile(_ path: String, _ text: String, mode: mode_t = 0o644) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw WaitTimeout(description: "cannot create \(path): errno \(errno)") }
    defer { close(fd) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { throw WaitTimeout(description: "cannot write \(path): errno \(errno)") }
        bytes = bytes.dropFirst(n)
    }
}
