// A private jack2 server for a test, headless (Debian's jackd2, dummy backend), and JACK's own
// example clients as the other end: jack_rec records a port, jack_midi_dump prints MIDI events.
import Glibc
import Synchronization
import TestCompositor
import Testing

/// `jackd -n NAME --no-realtime -d dummy -r RATE -p PERIOD`, a server of its own per test (the
/// name keeps parallel tests apart); its clients find it through ``environment``.
///
/// The names come from a small pool: jack2 keeps every server in a registry of 8 slots in shared
/// memory and frees a slot only when that server unregisters, or when a server *of the same name*
/// starts after it died; so fresh names after a few unclean ends would fill the registry ("Too many
/// servers already active") for every JACK program on the machine.
final class JackServer {
    let name: String
    let period: Int
    let rate: Int
    private let process: WlsliderProcess

    /// What a JACK client needs to find this server and never start one of its own.
    var environment: [String: String] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"] }

    private static let pool = Mutex(Set<Int>())
    private let slot: Int

    /// Starts the server and waits until `jack_lsp` answers. `realtime` runs it (and its clients'
    /// process threads) with SCHED_FIFO priority 70 (`-R -P 70`, which root may do) instead of
    /// `--no-realtime`: what a real setup does, and what lets a 64-frame period be met while the
    /// other tests load both cores.
    ///
    /// `nice` runs it at nice 19: a server that freewheels runs its periods back to back on both
    /// cores, and would otherwise starve the tests that run beside it.
    init(period: Int = 256, rate: Int = 48_000, realtime: Bool = false, nice: Bool = false) async throws {
        self.period = period
        self.rate = rate
        var failures: [String] = []
        for _ in 0..<3 {
            for slot in 1...5 {
                guard Self.pool.withLock({ $0.insert(slot).inserted }) else { continue }
                let name = "wlslider-test-\(slot)"
                let scheduling = realtime ? ["-R", "-P", "70"] : ["--no-realtime"]
                let command = ["jackd", "-n", name] + scheduling + ["-d", "dummy", "-r", String(rate), "-p", String(period)]
                let process = try WlsliderProcess(nice ? ["-n", "19"] + command : Array(command.dropFirst()),
                                                  environment: [:], executable: nice ? "nice" : "jackd")
                let environment = ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"]
                let deadline = ContinuousClock.now + .seconds(20)
                while process.exitCode == nil, ContinuousClock.now < deadline,
                      (try? await Self.runTool(["jack_lsp"], environment: environment))?.stdout.contains("system:") != true {
                    try await Task.sleep(for: .milliseconds(20))
                }
                if process.exitCode == nil, ContinuousClock.now < deadline {
                    (self.name, self.slot, self.process) = (name, slot, process)
                    return
                }
                failures.append(process.summary)
                Self.pool.withLock { _ = $0.remove(slot) }
            }
            try await Task.sleep(for: .seconds(1))
        }
        throw WaitTimeout(description: "jackd did not start:\n" + failures.joined(separator: "\n"))
    }

    deinit {
        // A test that did not stop it: SIGTERM, so that it unregisters, and a short wait (it takes
        // a few milliseconds); the process's own deinit kills what is left.
        if process.exitCode == nil {
            process.signal(SIGTERM)
            for _ in 0..<300 where process.exitCode == nil { usleep(10_000) }
        }
        Self.pool.withLock { _ = $0.remove(slot) }
    }

    /// Shuts the server down (SIGTERM, as a user would) and waits for it to go.
    func stop() async throws {
        guard process.exitCode == nil else { return }
        process.signal(SIGTERM)
        try await process.wait(for: "jackd \(name) to exit on SIGTERM") { process.exitCode != nil }
    }

    /// What jackd printed: jack2 names a client that missed its deadline
    /// ("JackEngine::XRun: client = NAME was not finished").
    var log: String { process.stdoutText + process.stderrText }

    /// Runs `attempt` on a server of its own (`makeServer`) until jackd logs no XRun while it runs
    /// and it does not ask to be taken again, up to three times: a client that misses a period
    /// spoils a recording (jack_rec's, jack_midi_dump's stamps) whatever wlslider sent. Returns the
    /// last attempt's result, its number and what jackd printed during it, for the checks. Each
    /// attempt taken again is one line on stderr.
    ///
    /// Each attempt gets a new server: after an XRun, the same server's estimate of when its
    /// periods fall can stay off by a period.
    static func untilCleanAttempt<Result>(_ makeServer: () async throws -> JackServer,
                                          _ attempt: (JackServer) async throws -> (result: Result, again: Bool))
        async throws -> (result: Result, attempts: Int, log: String) {
        var attempts = 0
        while true {
            attempts += 1
            let server = try await makeServer()
            let logBefore = server.log.count
            let (result, again) = try await attempt(server)
            let log = String(server.log.dropFirst(logBefore))
            if (log.contains("XRun") || again) && attempts < 3 {
                // Said on the test log, so how often a machine needs another attempt stays visible.
                let reason = log.split(separator: "\n").first { $0.contains("XRun") }.map { "jackd: \($0)" }
                    ?? "the attempt asked for another"
                let line = "JackServer: attempt \(attempts) taken again on a fresh server (\(reason))\n"
                _ = line.withCString { write(2, $0, strlen($0)) }
                continue
            }
            return (result, attempts, log)
        }
    }

    /// Runs a JACK tool against this server to its end (a few seconds at most). Waits without
    /// holding one of the test runner's few threads.
    @discardableResult
    func runTool(_ command: [String]) async throws -> (status: Int32, stdout: String) {
        try await Self.runTool(command, environment: environment)
    }

    private static func runTool(_ command: [String], environment: [String: String]) async throws -> (status: Int32, stdout: String) {
        let run = try WlsliderProcess(Array(command.dropFirst()), environment: environment, executable: command[0])
        let status = try await run.waitForExit(timeout: .seconds(10))
        return (status, run.stdoutText)
    }

    /// The ports the server lists now.
    func ports() async -> [String] {
        ((try? await runTool(["jack_lsp"]))?.stdout ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits until port `name` exists. `owner` is the process that registers it: should it end
    /// first, the wait ends at once and says what it printed.
    func waitForPort(_ name: String, of owner: WlsliderProcess? = nil) async throws {
        let deadline = ContinuousClock.now + patience
        while await !ports().contains(name) {
            let ownerGone = owner?.exitCode != nil
            guard ContinuousClock.now < deadline, !ownerGone else {
                throw WaitTimeout(description: "no port \(name)\(ownerGone ? ": its client ended" : ""): \(await ports())\n"
                                  + (owner.map { "\($0.summary)\n" } ?? "") + "jackd: \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// wlslider as a JACK client of `server` and a Wayland client of `compositor`; waits for its window.
func startJackWlslider(_ arguments: [String], server: JackServer, compositor: TestCompositor,
                       extraEnvironment: [String: String] = [:]) async throws -> WlsliderProcess {
    let environment = compositor.environment.merging(server.environment) { $1 }.merging(extraEnvironment) { $1 }
    let run = try WlsliderProcess(arguments, environment: environment)
    do {
        let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
        _ = try await compositor.waitForCommit(on: surface, after: 0, timeout: patience) { $0.buffer != nil }
    } catch {
        throw WaitTimeout(description: "\(error)\n\(run.summary)")
    }
    return run
}

/// The samples of a WAV file as jack_rec writes it (PCM 16/24/32-bit integer or 32-bit float, mono).
func wavSamples(_ path: String) -> [Double] {
    let bytes = readFile(path)
    func u32(_ i: Int) -> UInt32 { bytes[i..<i + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    func u16(_ i: Int) -> UInt16 { UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 }
    guard bytes.count >= 12 else { return [] }
    var format: UInt16 = 1, bits: UInt16 = 16, offset = 12
    while offset + 8 <= bytes.count {
        let size = Int(u32(offset + 4)), body = offset + 8
        let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        if id == "fmt " { format = u16(body); bits = u16(body + 14) }
        if id == "data" {
            let end = min(body + size, bytes.count), width = Int(bits) / 8
            return stride(from: body, to: end - width + 1, by: width).map { i in
                switch (format, bits) {
                case (3, 32): Double(Float(bitPattern: u32(i)))
                case (_, 32): Double(Int32(bitPattern: u32(i))) / 2_147_483_648
                case (_, 24): Double(Int32(bitPattern: (UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 24))) / 2_147_483_648
                default: Double(Int16(bitPattern: u16(i))) / 32768
                }
            }
        }
        offset = body + size + size % 2
    }
    return []
}

/// One event as `jack_midi_dump -a` prints it: `  23651: b0 01 20 control change …`.
struct MIDIEvent: Equatable, CustomStringConvertible {
    let frame: Int
    let bytes: [UInt8]
    var description: String { "\(frame): \(bytes.map { String($0, radix: 16) }.joined(separator: " "))" }

    static func parse(_ text: String) -> [MIDIEvent] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let frame = Int(parts[0].trimmingSpaces()) else { return nil }
            let words = parts[1].split(separator: " ")
            let bytes = words.prefix { $0.count == 2 }.compactMap { UInt8($0, radix: 16) }
            return bytes.isEmpty ? nil : MIDIEvent(frame: frame, bytes: bytes)
        }
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
