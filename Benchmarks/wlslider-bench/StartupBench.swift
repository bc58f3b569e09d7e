// `wlslider-bench startup`: time from exec to the first committed frame of each client, under the
// project's test compositor (Tests/Support/TestCompositor) started in this process. The time is
// taken just before the compositor spawns the client and again by a waiter that the compositor
// runs right after dispatching the commit that attached the client's first buffer, so it covers
// exec, runtime start-up, connecting, binding globals, the configure round trip, drawing and the
// commit, and nothing of the bench's own scheduling. The clients run alternately; median of --runs.
import Dispatch
import Glibc
import Synchronization
import TestCompositor

let startupBenchCommand = BenchCommand(
    name: "startup",
    summary: "Time from exec to the first committed frame of each client under the test compositor (median of --runs).",
    run: runStartupBench
)

private let startupHelp = """
    Usage: wlslider-bench startup [--runs N] CLIENT [CLIENT...]
      --runs N   Runs per client (default 15), after one unmeasured warm-up run each.
      CLIENT     A client command (looked up in PATH), e.g. .build/release/wlslider weston-simple-shm.
    """

private func runStartupBench(_ arguments: [String]) -> Int32 {
    var runs = 15
    var clients: [String] = []
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--help": print(startupHelp); return 0
        case "--runs":
            guard let text = rest.popFirst(), let n = Int(text), n > 0 else { return usageError("--runs wants a positive whole number", help: startupHelp) }
            runs = n
        default: clients.append(argument)
        }
    }
    guard !clients.isEmpty else { return usageError("name at least one client", help: startupHelp) }
    let (commands, count) = (clients, runs)
    let outcome = blockingAwait { () async throws -> [[Double]] in try await measureStartup(commands, runs: count) }
    switch outcome {
    case .success(let times):
        printRow("start-up, test compositor (seat with keyboard): median (min–max) of \(runs), ms")
        printRow("  exec → first committed frame", millisecondsSummary(times[0]), times.count > 1 ? millisecondsSummary(times[1]) : "")
        if times.count > 1 {
            let ratio = medianRatio(times[0], times[1])
            printRow("  ratio to \(clients[1]) (median per run)", "\(fixed(ratio, 2))×", "",
                     target: "≤ 3×", verdict: verdict(ratio <= 3))
        }
        return 0
    case .failure(let error):
        printError("Error: \(error)")
        return 1
    }
}

private func measureStartup(_ clients: [String], runs: Int) async throws -> [[Double]] {
    // The default configuration: a seat with pointer, keyboard and touch, as on a desktop, so
    // wlslider's start-up includes compiling the keymap the compositor sends.
    let compositor = try TestCompositor()
    defer { compositor.stop() }
    var times = Array(repeating: [Double](), count: clients.count)
    for run in -1..<runs {
        for index in clients.indices {
            let milliseconds = try await firstFrameMilliseconds(clients[index], on: compositor)
            if run >= 0 { times[index].append(milliseconds) }
        }
    }
    return times
}

/// Launches the client, waits for its first commit with a buffer, stops it; milliseconds from
/// just before the spawn to the compositor's dispatch of that commit.
private func firstFrameMilliseconds(_ client: String, on compositor: TestCompositor) async throws -> Double {
    let start = monotonicSeconds()
    let process = try compositor.launch(client)
    let pid = compositor.state.processes[process]!.pid
    let committed = try await compositor.waitFor("the first frame of \(client)", timeout: .seconds(10)) { state -> Double? in
        let clients = Set(state.clients.values.filter { $0.pid == pid }.map(\.id))
        let drawn = state.surfaces.values.contains { clients.contains($0.client) && $0.commits.contains { $0.buffer != nil } }
        return drawn ? monotonicSeconds() : nil
    }
    try compositor.signal(process, SIGKILL)
    _ = try await compositor.waitForExit(process)
    return (committed - start) * 1000
}

/// Runs an async body to completion from synchronous code (the bench's subcommands are plain
/// functions) and returns its outcome.
func blockingAwait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return outcome.withLock { $0! }
}
