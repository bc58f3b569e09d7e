// `wlslider-bench frames`: what one animated frame costs wlslider, next to the floor — a bare C
// client that does the least a frame-paced shm client can (Benchmarks/floor-client) — and to
// weston-simple-shm, all under the test compositor in this process, frame callbacks every 16 ms
// of real time, so the compositor's own work is not on any client's bill and commits are counted
// on the compositor's side without any client logging.
//
// For each client, over a window in the middle of an animation (wlslider: a 3 s glide driven
// from stdin; the others animate on their own):
//   CPU per frame          schedstat of all the client's threads ÷ commits in the window;
//   allocations per frame  with --counter (Benchmarks/alloc-counter, LD_PRELOAD), malloc & co.
//                          ÷ commits, in all and those the program's own code made (the
//                          executable and the Swift runtime, not libwayland's per request).
// CPU is taken from runs without the counter (the median of --runs), allocations from one run
// with it.
import Glibc
import TestCompositor

let frameCostBenchCommand = BenchCommand(
    name: "frames",
    summary: "CPU and heap allocations per animated frame of wlslider, the C floor client and a reference, under the test compositor.",
    run: runFrameCostBench
)

private let frameCostHelp = """
    Usage: wlslider-bench frames --wlslider PATH --floor PATH [--swift-floor PATH] [--reference COMMAND] [--counter PATH] [--runs N] [--check-own-allocations] [--verbose] [--title TEXT]
      --wlslider PATH       The wlslider binary to measure.
      --floor PATH          The floor client (Benchmarks/floor-client, built by scripts/bench).
      --swift-floor PATH    The floor client's frame in Swift (Benchmarks/floor-swift), built with
                            wlslider's release flags: what the language and its runtime add.
      --reference COMMAND   Another client (default weston-simple-shm; "" for none).
      --counter PATH        The allocation counter (alloc-counter.so) for LD_PRELOAD.
      --runs N              Runs per client for CPU (default 3).
      --compare PATH        Another wlslider binary measured alongside (A/B of two builds).
      --window S            Seconds of animation measured per run (default 1.8; wlslider's glide
                            lasts the window and 1.2 s more).
      --check-own-allocations  Exit 1 unless wlslider's own code allocates nothing per frame.
      --verbose             Each run's CPU per frame of each client on stderr.
      --title TEXT          The table's heading (default: test compositor, 60 Hz).
    """

private struct FrameCostOptions {
    var wlslider = ""
    var floor = ""
    var swiftFloor: String?
    var reference = "weston-simple-shm"
    var counter: String?
    var runs = 3
    var windowSeconds = 1.8
    var compare: String?
    var checkOwnAllocations = false
    var verbose = false
    /// The table's heading (what differs from the default set-up, such as pinned CPUs).
    var title = "test compositor, 60 Hz"
}

/// What one window of one client's animation showed.
private struct FrameWindow: Sendable {
    var commits: Int
    var cpuNanoseconds: UInt64
    /// Voluntary context switches: each a return from poll (or another blocking call).
    var wakeups: UInt64
    var allocations: (total: UInt64, own: UInt64)?

    var cpuMicrosecondsPerFrame: Double { commits > 0 ? Double(cpuNanoseconds) / 1000 / Double(commits) : .nan }
    func perFrame(_ count: UInt64) -> Double { commits > 0 ? Double(count) / Double(commits) : .nan }
}

private func runFrameCostBench(_ arguments: [String]) -> Int32 {
    var options = FrameCostOptions()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        if flag == "--help" { print(frameCostHelp); return 0 }
        if flag == "--check-own-allocations" { options.checkOwnAllocations = true; continue }
        if flag == "--verbose" { options.verbose = true; continue }
        if flag == "--title", let title = rest.popFirst() { options.title = title; continue }
        guard let value = rest.popFirst() else { return usageError("\(flag) needs a value", help: frameCostHelp) }
        switch flag {
        case "--wlslider": options.wlslider = value
        case "--floor": options.floor = value
        case "--reference": options.reference = value
        case "--counter": options.counter = value
        case "--compare": options.compare = value
        case "--swift-floor": options.swiftFloor = value
        case "--runs":
            guard let n = Int(value), n > 0, n < 100 else { return usageError("--runs wants 1 to 99, got '\(value)'", help: frameCostHelp) }
            options.runs = n
        case "--window":
            guard let s = Double(value), s >= 0.1, s <= 600 else { return usageError("--window wants 0.1 to 600 seconds, got '\(value)'", help: frameCostHelp) }
            options.windowSeconds = s
        default: return usageError("unknown option '\(flag)'", help: frameCostHelp)
        }
    }
    guard !options.wlslider.isEmpty, !options.floor.isEmpty else {
        return usageError("--wlslider and --floor are required", help: frameCostHelp)
    }
    let measured = options
    switch blockingAwait({ () async throws -> FrameResults in
        try await measureAll(measured)
    }) {
    case .success(let results):
        report(results, options)
        if options.checkOwnAllocations {
            guard let own = results.clients["wlslider"]?.allocations.flatMap({ $0.allocations?.own }) else {
                printError("Error: --check-own-allocations needs --counter")
                return 1
            }
            return own == 0 ? 0 : 1
        }
        return 0
    case .failure(let error):
        printError("Error: \(error)")
        return 1
    }
}

/// What `measureAll` found: each client's median CPU per frame and its allocation window, and
/// the median over the runs of wlslider's CPU per frame ÷ the floor's in the same run (runs
/// alternate the clients, so a machine whose load drifts weighs on both sides of each ratio).
private struct FrameResults: Sendable {
    var clients: [String: (cpu: Double, wakeups: Double, allocations: FrameWindow?)] = [:]
    var ratio = Double.nan
    /// The same for wlslider with its value lines going to /dev/null.
    var ratioWithoutReader = Double.nan
    /// The same for the binary of --compare.
    var ratioCompared = Double.nan
    /// The Swift floor's CPU per frame ÷ the C floor's, and wlslider's ÷ the Swift floor's.
    var ratioSwiftFloor = Double.nan
    var ratioOverSwiftFloor = Double.nan
}

private func report(_ results: FrameResults, _ options: FrameCostOptions) {
    let slider = results.clients["wlslider"], floor = results.clients["floor"], reference = results.clients["reference"]
    let ratio = results.ratio
    printRow("per animated frame (\(options.title)); columns: wlslider | floor client | \(options.reference.isEmpty ? "-" : options.reference)")
    printRow("  CPU per frame (medians of \(options.runs) runs; ratio per run)",
             "\(fixed(slider?.cpu ?? .nan, 1)) µs = \(fixed(ratio, 2))× floor",
             "\(fixed(floor?.cpu ?? .nan, 1)) µs | \(fixed(reference?.cpu ?? .nan, 1)) µs",
             target: "≤ 1.5× floor", verdict: verdict(ratio <= 1.5))
    let quiet = results.clients["wlslider-null"]
    printRow("  the same, value lines to /dev/null instead of a pipe",
             "\(fixed(quiet?.cpu ?? .nan, 1)) µs = \(fixed(results.ratioWithoutReader, 2))× floor")
    if let compared = results.clients["wlslider-compare"], let path = options.compare {
        printRow("  compared: \(path)", "\(fixed(compared.cpu, 1)) µs = \(fixed(results.ratioCompared, 2))× floor")
    }
    if let swiftFloor = results.clients["floor-swift"] {
        printRow("  the floor client's frame in Swift: CPU per frame",
                 "\(fixed(swiftFloor.cpu, 1)) µs = \(fixed(results.ratioSwiftFloor, 2))× floor")
        printRow("  wlslider over the Swift floor (ratio per run)", "\(fixed(results.ratioOverSwiftFloor, 2))×")
    }
    printRow("  wake-ups per frame (voluntary context switches)", fixed(slider?.wakeups ?? .nan, 2),
             "\(fixed(floor?.wakeups ?? .nan, 2)) | \(fixed(reference?.wakeups ?? .nan, 2))")
    if let window = slider?.allocations, let counts = window.allocations, let floorCounts = floor?.allocations?.allocations {
        printRow("  heap allocations per frame: own code (all)",
                 "\(fixed(window.perFrame(counts.own), 2)) (\(fixed(window.perFrame(counts.total), 1)))",
                 "floor: \(fixed(floor!.allocations!.perFrame(floorCounts.own), 2)) (\(fixed(floor!.allocations!.perFrame(floorCounts.total), 1)))",
                 target: "0 own", verdict: verdict(counts.own == 0))
        printRow("  (allocation window: \(window.commits) frames of wlslider, \(floor!.allocations!.commits) of the floor)")
    }
}

private func measureAll(_ options: FrameCostOptions) async throws -> FrameResults {
    // wlslider twice: its value lines read through a pipe (by the compositor's thread, as a
    // consumer would read them: each line wakes the reader) and written to /dev/null (no reader).
    var clients: [(String, [String])] = [("wlslider", [options.wlslider]), ("floor", [options.floor]),
                                         ("wlslider-null", ["/bin/sh", "-c", "exec \"$0\" \"$@\" >/dev/null", options.wlslider])]
    if !options.reference.isEmpty { clients.append(("reference", [options.reference])) }
    if let compare = options.compare { clients.append(("wlslider-compare", [compare])) }
    if let swiftFloor = options.swiftFloor { clients.append(("floor-swift", [swiftFloor])) }
    var cpu: [String: [Double]] = [:], wakeups: [String: [Double]] = [:]
    for run in 0..<options.runs {
        var perRun: [String] = []
        // Each run starts one client further down the list, so that no client always runs at
        // the same place in the round, after the same neighbour.
        for offset in clients.indices {
            let (name, command) = clients[(offset + run) % clients.count]
            let window = try await measure(name: name, command: command, counter: nil, seconds: options.windowSeconds)
            cpu[name, default: []].append(window.cpuMicrosecondsPerFrame)
            wakeups[name, default: []].append(window.perFrame(window.wakeups))
            perRun.append("\(name) \(fixed(window.cpuMicrosecondsPerFrame, 1))")
        }
        if options.verbose { printError("run \(run + 1): " + perRun.joined(separator: ", ")) }
    }
    var results = FrameResults()
    for (name, command) in clients {
        var allocations: FrameWindow?
        if let counter = options.counter, name == "wlslider" || name == "floor" {
            allocations = try await measure(name: name, command: command, counter: counter, seconds: options.windowSeconds)
        }
        results.clients[name] = (median(cpu[name] ?? [.nan]), median(wakeups[name] ?? [.nan]), allocations)
    }
    func ratio(_ client: String, over other: String) -> Double { medianRatio(cpu[client] ?? [], cpu[other] ?? []) }
    results.ratio = ratio("wlslider", over: "floor")
    results.ratioWithoutReader = ratio("wlslider-null", over: "floor")
    if options.compare != nil { results.ratioCompared = ratio("wlslider-compare", over: "floor") }
    if options.swiftFloor != nil {
        results.ratioSwiftFloor = ratio("floor-swift", over: "floor")
        results.ratioOverSwiftFloor = ratio("wlslider", over: "floor-swift")
    }
    return results
}

/// One client under a fresh test compositor: the counters over a window of its animation.
private func measure(name: String, command: [String], counter: String?, seconds: Double) async throws -> FrameWindow {
    var configuration = Configuration()
    configuration.frameCallbacks = .realTime(intervalMilliseconds: 16)
    let compositor = try TestCompositor(configuration)
    defer { compositor.stop() }
    var environment: [String: String] = [:]
    var countsPath: String?
    if let counter {
        let path = "/tmp/wlslider-bench-allocations-\(getpid())-\(name)"
        unlink(path)
        environment = ["LD_PRELOAD": counter, "ALLOC_COUNTER_FILE": path]
        countsPath = path
    }
    defer { if let countsPath { unlink(countsPath) } }
    let isSlider = name.hasPrefix("wlslider")
    let arguments = isSlider ? Array(command.dropFirst()) + ["--value", "0", "--jump-duration", "\(seconds + 1.2)", "--curve", "linear"] : Array(command.dropFirst())
    let process = try compositor.launch(command[0], arguments: arguments, environment: environment, standardInput: isSlider)
    guard let pid = compositor.state.processes[process]?.pid else { throw BenchError("\(name) did not start") }
    let surface = try await compositor.waitForSurface(role: .toplevel)
    _ = try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }
    if isSlider {
        try await Task.sleep(for: .milliseconds(300))
        try compositor.writeStandardInput(process, "100\n")
    }
    // Into the animation, away from its start (first-use growth of buffers) and its end.
    try await Task.sleep(for: .milliseconds(600))
    let before = try sample(pid: pid, surface: surface, compositor, counts: countsPath)
    try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    let after = try sample(pid: pid, surface: surface, compositor, counts: countsPath)
    try compositor.signal(process, SIGTERM)
    _ = try await compositor.waitForExit(process)
    var window = FrameWindow(commits: after.commits - before.commits, cpuNanoseconds: after.cpu &- before.cpu,
                             wakeups: after.wakeups &- before.wakeups)
    if let a = after.allocations, let b = before.allocations { window.allocations = (a.total &- b.total, a.own &- b.own) }
    guard window.commits > 0 else { throw BenchError("\(name) committed no frame in the window") }
    return window
}

private func sample(pid: pid_t, surface: SurfaceID, _ compositor: TestCompositor, counts: String?) throws
    -> (commits: Int, cpu: UInt64, wakeups: UInt64, allocations: (total: UInt64, own: UInt64)?) {
    guard let counters = ProcessCounters.read(pid) else { throw BenchError("the client exited mid-window") }
    let commits = compositor.state.surfaces[surface]?.commitCount ?? 0
    return (commits, counters.cpuNanoseconds, counters.voluntarySwitches, counts.flatMap(readCounts))
}

/// The counter file's two numbers: every allocation, and the program's own.
private func readCounts(_ path: String) -> (total: UInt64, own: UInt64)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var values: (UInt64, UInt64) = (0, 0)
    let n = withUnsafeMutableBytes(of: &values) { read(fd, $0.baseAddress, $0.count) }
    return n == 16 ? (values.0, values.1) : nil
}
