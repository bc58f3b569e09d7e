// `wlslider-bench session`: wlslider next to a reference client (weston-simple-shm) under the
// compositor named by WAYLAND_DISPLAY (scripts/bench starts a headless weston), in one run:
//
// 1. start-up: exec → first Wayland request and exec → first committed frame (the first
//    `wl_surface.commit` after a `wl_surface.attach` of a buffer). With --server-log (a
//    compositor started with WAYLAND_DEBUG=server writing its protocol stream there, as
//    scripts/bench does) the stamps are the compositor's, taken as it dispatches each request,
//    so neither client pays for logging; without it they come from the client's own
//    WAYLAND_DEBUG=1 log, which charges each client for formatting its own messages (wlslider
//    sends more of them than weston-simple-shm). Either way the stamps are CLOCK_REALTIME
//    microseconds (mod 2³²), against the same clock read just before posix_spawn. Median of
//    --runs, the two clients alternating.
// 2. idle: one more run of each client, with WAYLAND_DEBUG=1 in the client: --settle seconds
//    after the first frame, the client's CPU time and wake-ups (voluntary context switches, all
//    threads) over --idle seconds, stdin a pipe held open and silent. WAYLAND_DEBUG costs an idle
//    client nothing: it prints only messages, and an idle client has none; when wlslider does
//    wake, the log lines of the window say why.
// 3. a session without WAYLAND_DEBUG: wlslider glides to a few targets sent on stdin, stays idle
//    for --idle seconds (wake-ups counted again: animations must leave nothing running), then
//    `quit`; the reference client animates for 3 s and gets SIGINT. Peak RSS is VmHWM,
//    read until the last millisecond before exit (see Processes.swift for why not ru_maxrss).
import Glibc

let sessionBenchCommand = BenchCommand(
    name: "session",
    summary: "Under the compositor of WAYLAND_DISPLAY: start-up time, idle CPU and wake-ups, peak RSS of wlslider next to a reference client.",
    run: runSessionBench
)

private let sessionHelp = """
    Usage: wlslider-bench session --wlslider PATH [--reference COMMAND] [--server-log PATH] [--runs N] [--idle S] [--settle S]
      --wlslider PATH      The wlslider binary to measure.
      --reference COMMAND  The client to compare with (default weston-simple-shm).
      --server-log PATH    The compositor's WAYLAND_DEBUG=server log: start-up stamps come from
                           it instead of from each client's own WAYLAND_DEBUG=1 log.
      --runs N             Start-up runs per client (default 15).
      --idle S             Length of the idle window (default 5 s).
      --settle S           Wait after the first frame before the idle window (default 0.5 s).
    """

private struct SessionOptions {
    var wlslider = ""
    var reference = "weston-simple-shm"
    var serverLog: String?
    var runs = 15
    var idle = 5.0
    var settle = 0.5

    static func parse(_ arguments: [String]) -> (SessionOptions?, String?) {
        var options = SessionOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" { return (nil, nil) }
            guard let value = rest.popFirst() else { return (nil, "\(flag) needs a value") }
            switch flag {
            case "--wlslider": options.wlslider = value
            case "--reference": options.reference = value
            case "--server-log": options.serverLog = value
            case "--runs":
                guard let n = Int(value), n > 0 else { return (nil, "--runs wants a positive whole number, got '\(value)'") }
                options.runs = n
            case "--idle", "--settle":
                guard let s = Double(value), s >= 0, s <= 600 else { return (nil, "\(flag) wants seconds from 0 to 600, got '\(value)'") }
                if flag == "--idle" { options.idle = s } else { options.settle = s }
            default: return (nil, "unknown option '\(flag)'")
            }
        }
        if options.wlslider.isEmpty { return (nil, "--wlslider PATH is required") }
        return (options, nil)
    }
}

/// What one start-up run of one client showed.
private struct StartupSample {
    var firstRequestMilliseconds: Double
    var firstFrameMilliseconds: Double
}

/// The idle window of one client.
private struct IdleSample {
    var counters: ProcessCounters
    /// `wl_surface.commit` requests logged during the window.
    var commits: Int
    /// The protocol messages logged during the window (the first few).
    var messages: [Substring]
}

private func runSessionBench(_ arguments: [String]) -> Int32 {
    let (parsed, problem) = SessionOptions.parse(arguments)
    guard let options = parsed else {
        if let problem { return usageError(problem, help: sessionHelp) }
        print(sessionHelp)
        return 0
    }
    guard getenv("WAYLAND_DISPLAY") != nil else {
        printError("Error: WAYLAND_DISPLAY is not set: run this under a compositor (scripts/bench starts a headless weston)")
        return 1
    }
    do {
        try measureSession(options)
        return 0
    } catch {
        printError("Error: \(error)")
        return 1
    }
}

private func measureSession(_ options: SessionOptions) throws(BenchError) {
    let clients = [[options.wlslider], [options.reference]]
    var startup: [[StartupSample]] = [[], []]
    var idle: [IdleSample?] = [nil, nil]
    for index in clients.indices {
        idle[index] = try idleRun(clients[index], options)
    }
    for run in 0..<options.runs {
        // Alternate which client starts first, so neither always finds the caches warmer.
        for index in run % 2 == 0 ? [0, 1] : [1, 0] {
            startup[index].append(try startupRun(clients[index], serverLog: options.serverLog))
        }
    }
    let peak = try (glideSession(wlslider: options.wlslider, idle: options.idle), referencePeakRSS(options.reference))
    report(options, startup: startup, idle: idle, peak: peak)
}

/// Starts the client, waits for its first frame in the protocol log (the compositor's, or the
/// client's own WAYLAND_DEBUG=1 one), and stops it.
private func startupRun(_ command: [String], serverLog: String?) throws(BenchError) -> StartupSample {
    let clientLog = "/tmp/wlslider-bench-\(getpid())-debug.log"
    defer { unlink(clientLog) }
    let logged: (path: String, skip: Int, find: (Substring, UInt32) -> (firstRequest: UInt32, firstCommit: UInt32)?)
    if let serverLog {
        // Only what the compositor logs from here on (read from there: the log grows all session
        // long, and reading it whole every half millisecond would take the measured client's CPU).
        logged = (serverLog, fileSize(serverLog) ?? 0, DebugLog.firstFrame(inServerLog:after:))
    } else {
        logged = (clientLog, 0, { log, _ in DebugLog.firstFrame(in: String(log)) })
    }
    let process = try MeasuredProcess(command, environment: serverLog == nil ? ["WAYLAND_DEBUG": "1"] : [:],
                                      stdin: .pipe, stderrPath: clientLog)
    defer { process.signal(SIGKILL); process.wait() }
    let spawn = UInt32(truncatingIfNeeded: process.spawnRealtimeMicroseconds)
    let deadline = monotonicSeconds() + 10
    var found: (firstRequest: UInt32, firstCommit: UInt32)?
    while found == nil {
        found = readTextFile(logged.path, from: logged.skip).flatMap { logged.find(Substring($0), spawn) }
        if found == nil {
            guard monotonicSeconds() < deadline else {
                throw BenchError("\(command[0]): no committed frame within 10 s (log: \(readTextFile(logged.path)?.suffix(300) ?? ""))")
            }
            usleep(500)
        }
    }
    return StartupSample(firstRequestMilliseconds: Double(found!.firstRequest &- spawn) / 1000,
                         firstFrameMilliseconds: Double(found!.firstCommit &- spawn) / 1000)
}

/// One run of the client with WAYLAND_DEBUG=1: its CPU time, wake-ups and protocol messages over
/// an idle window after its first frame.
private func idleRun(_ command: [String], _ options: SessionOptions) throws(BenchError) -> IdleSample {
    let log = "/tmp/wlslider-bench-\(getpid())-idle.log"
    defer { unlink(log) }
    let process = try MeasuredProcess(command, environment: ["WAYLAND_DEBUG": "1"], stdin: .pipe, stderrPath: log)
    defer { process.signal(SIGKILL); process.wait() }
    let deadline = monotonicSeconds() + 10
    while readTextFile(log).flatMap(DebugLog.firstFrame) == nil {
        guard monotonicSeconds() < deadline else { throw BenchError("\(command[0]): no committed frame within 10 s") }
        usleep(500)
    }
    sleepSeconds(options.settle)
    let logBefore = readTextFile(log)?.utf8.count ?? 0
    guard let before = ProcessCounters.read(process.pid) else { throw BenchError("\(command[0]) exited after its first frame") }
    sleepSeconds(options.idle)
    guard let after = ProcessCounters.read(process.pid) else { throw BenchError("\(command[0]) exited during the idle window") }
    let window = (readTextFile(log) ?? "").utf8.dropFirst(logBefore)
    let messages = Substring(window).split(separator: "\n")
    return IdleSample(counters: after - before, commits: messages.filter { $0.hasSuffix(".commit()") }.count,
                      messages: Array(messages.prefix(12)))
}

/// What the session without WAYLAND_DEBUG showed.
private struct GlideSession {
    var memory: MemoryFigures
    var lines: [String]
    /// Counters over the idle window after the last glide.
    var idleAfterGlides: ProcessCounters
}

/// wlslider glides to a few targets sent on stdin, stays idle for `idle` seconds once the last
/// glide has ended, and quits.
private func glideSession(wlslider: String, idle: Double) throws(BenchError) -> GlideSession {
    let process = try MeasuredProcess([wlslider], stdin: .pipe, stdout: .pipe)
    process.sleepWatchingMemory(0.5)
    for command in ["80", "20", "+30", "100", "0"] {
        process.send(command)
        process.sleepWatchingMemory(0.5)  // a jump glide takes 0.25 s
    }
    guard let before = ProcessCounters.read(process.pid) else { throw BenchError("wlslider exited during the glides") }
    process.sleepWatchingMemory(idle)
    guard let after = ProcessCounters.read(process.pid) else { throw BenchError("wlslider exited while idle after the glides") }
    process.send("quit")
    let status = process.wait()
    guard status == 0 else { throw BenchError("wlslider ended with wait status \(status) after `quit` in the glide session") }
    return GlideSession(memory: process.memory, lines: process.outputLines(), idleAfterGlides: after - before)
}

/// The reference client runs as long as the wlslider session, then gets SIGINT.
private func referencePeakRSS(_ command: String) throws(BenchError) -> MemoryFigures {
    let process = try MeasuredProcess([command], stdin: .pipe)
    process.sleepWatchingMemory(3)
    process.signal(SIGINT)
    process.wait(timeout: 2)
    return process.memory
}

private func report(_ options: SessionOptions, startup: [[StartupSample]], idle: [IdleSample?], peak: (GlideSession, MemoryFigures)) {
    let stamps = options.serverLog == nil ? "each client's WAYLAND_DEBUG stamps" : "the compositor's protocol stream"
    printRow("start-up, headless weston (no seat), \(stamps): median (min–max) of \(options.runs), ms")
    printRow("  exec → first Wayland request", millisecondsSummary(startup[0].map(\.firstRequestMilliseconds)),
             millisecondsSummary(startup[1].map(\.firstRequestMilliseconds)))
    let firstFrames = startup.map { $0.map(\.firstFrameMilliseconds) }
    printRow("  exec → first committed frame", millisecondsSummary(firstFrames[0]), millisecondsSummary(firstFrames[1]))
    let ratio = medianRatio(firstFrames[0], firstFrames[1])
    printRow("  ratio to \(options.reference) (median per run)", "\(fixed(ratio, 2))×", "",
             target: "≤ 3×", verdict: verdict(ratio <= 3))
    printRow("idle \(fixed(options.idle, 0)) s from \(fixed(options.settle, 1)) s after the first frame (stdin open, silent)")
    let cells = idle.map { $0.map { sample in
        (wakeups: "\(sample.counters.voluntarySwitches) (+\(sample.counters.involuntarySwitches) preempted)",
         cpu: "\(fixed(Double(sample.counters.cpuNanoseconds) / 1e6, 3)) ms", commits: "\(sample.commits)")
    } }
    let wakeups = idle[0]?.counters.voluntarySwitches
    printRow("  wake-ups (voluntary context switches)", cells[0]?.wakeups ?? "?", cells[1]?.wakeups ?? "?", target: "0",
             verdict: verdict(wakeups == 0))
    printRow("  CPU time (schedstat)", cells[0]?.cpu ?? "?", cells[1]?.cpu ?? "?", target: "—")
    printRow("  frames committed", cells[0]?.commits ?? "?", cells[1]?.commits ?? "?", target: "0")
    if let messages = idle[0]?.messages, !messages.isEmpty {
        printRow("  wlslider's protocol log during the window:")
        for line in messages { printRow("    " + line) }
    }
    let (session, reference) = peak
    let afterGlides = session.idleAfterGlides
    printRow("  wake-ups, idle \(fixed(options.idle, 0)) s after 5 glides", "\(afterGlides.voluntarySwitches) (+\(afterGlides.involuntarySwitches) preempted)",
             "", target: "0", verdict: verdict(afterGlides.voluntarySwitches == 0))
    printRow("  CPU time, idle after 5 glides", "\(fixed(Double(afterGlides.cpuNanoseconds) / 1e6, 3)) ms")
    printRow("peak RSS (VmHWM up to exit): 5 glides, idle, quit / \(options.reference) for 3 s")
    printRow("  peak RSS", mebibytes(session.memory.peak), mebibytes(reference.peak),
             target: "≤ 12 MB", verdict: verdict(session.memory.peak * 1024 <= 12_000_000))
    printRow("  resident at exit: file-backed (code)", mebibytes(session.memory.file), mebibytes(reference.file))
    printRow("  resident at exit: anonymous (heap, stack)", mebibytes(session.memory.anonymous), mebibytes(reference.anonymous))
    printRow("  resident at exit: shared (wl_shm pool)", mebibytes(session.memory.shared), mebibytes(reference.shared))
    printRow("  (wlslider printed \(session.lines.count) value lines, the last \(session.lines.last ?? "none"))")
}

/// Kilobytes as "11.3 MiB".
private func mebibytes(_ kilobytes: Int) -> String {
    "\(fixed(Double(kilobytes) / 1024, 1)) MiB"
}

/// Reading a WAYLAND_DEBUG log (libwayland 1.21 format: a client's `[ 488095.071]  ->
/// wl_surface@8.commit()`, a compositor's `[ 488095.080] wl_surface@8.commit()` for the same
/// request, the stamp being CLOCK_REALTIME in microseconds, truncated to 32 bits, printed as
/// milliseconds with three decimals; ` -> ` marks what the logging side sent).
enum DebugLog {
    /// In a compositor's log: the stamps of the first client request at or after `spawn` (a new
    /// client's first request is `wl_display@1.get_registry`) and of that client's first commit
    /// after a buffer attach to the same surface. The compositor's log does not say which client
    /// sent a request; one client starts at a time, and weston's own clients (panel, keyboard)
    /// are idle by then, so the first such commit after the new client's first request is its own.
    static func firstFrame(inServerLog log: Substring, after spawn: UInt32) -> (firstRequest: UInt32, firstCommit: UInt32)? {
        var firstRequest: UInt32?
        var attachedSurfaces: Set<Substring> = []
        for line in log.split(separator: "\n") {
            guard !line.contains(" -> "), let stamp = stamp(of: line) else { continue }
            if firstRequest == nil {
                // Stamps wrap at 2³² µs (71 minutes): compare by difference.
                guard line.contains("wl_display@1.get_registry("), Int32(bitPattern: stamp &- spawn) >= 0 else { continue }
                firstRequest = stamp
                continue
            }
            guard let surface = surfaceObject(of: line) else { continue }
            if line.contains(".attach(wl_buffer@") { attachedSurfaces.insert(surface) }
            if line.hasSuffix(".commit()") && attachedSurfaces.contains(surface) { return (firstRequest!, stamp) }
        }
        return nil
    }

    /// `wl_surface@8` in `[ 488095.080] wl_surface@8.commit()`.
    private static func surfaceObject(of line: Substring) -> Substring? {
        guard let close = line.firstIndex(of: "]") else { return nil }
        let request = line[line.index(after: close)...].drop { $0 == " " }
        guard request.hasPrefix("wl_surface@"), let dot = request.firstIndex(of: ".") else { return nil }
        return request[..<dot]
    }

    /// The stamps of the first request and of the first commit after a buffer attach; nil until
    /// the log shows such a commit.
    static func firstFrame(in log: String) -> (firstRequest: UInt32, firstCommit: UInt32)? {
        var firstRequest: UInt32?
        var attached = false
        for line in log.split(separator: "\n") {
            guard line.contains(" -> "), let stamp = stamp(of: line) else { continue }
            if firstRequest == nil { firstRequest = stamp }
            if line.contains(".attach(wl_buffer@") { attached = true }
            if attached && line.hasSuffix(".commit()") && line.contains("wl_surface@") { return (firstRequest!, stamp) }
        }
        return nil
    }

    private static func stamp(of line: Substring) -> UInt32? {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return nil }
        let parts = line[line.index(after: line.startIndex)..<close].split(separator: ".")
        guard parts.count == 2, let milliseconds = UInt64(parts[0].filter { $0 != " " }), let micro = UInt64(parts[1]) else { return nil }
        return UInt32(truncatingIfNeeded: milliseconds * 1000 + micro)
    }
}
