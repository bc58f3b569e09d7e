// `wlslider-bench idle-input`: wake-ups of wlslider once all input is over, under the test
// compositor, whose seat has the pointer, keyboard and touch that headless weston lacks. The
// client gets keyboard focus, a pointer hover and click, a touch drag, arrow keys (with key repeat
// on) and a wheel turn; frame callbacks come every 16 ms of real time, so every animation runs
// to its end. Then the pointer and the keyboard stay where they are and nothing happens for
// --idle seconds: a key-repeat timer, a frame-callback chain or a tick timer left running, or a
// descriptor that stays readable, shows up as wake-ups.
import Glibc
import TestCompositor

let idleInputBenchCommand = BenchCommand(
    name: "idle-input",
    summary: "Wake-ups of wlslider after pointer, touch, keyboard and wheel input, under the test compositor (target 0).",
    run: runIdleInputBench
)

private let idleInputHelp = """
    Usage: wlslider-bench idle-input --wlslider PATH [--idle S]
      --wlslider PATH  The wlslider binary to measure.
      --idle S         Length of the idle window after the input (default 5 s).
    """

private func runIdleInputBench(_ arguments: [String]) -> Int32 {
    var wlslider = "", idle = 5.0
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        if flag == "--help" { print(idleInputHelp); return 0 }
        guard let value = rest.popFirst() else { return usageError("\(flag) needs a value", help: idleInputHelp) }
        switch flag {
        case "--wlslider": wlslider = value
        case "--idle":
            guard let s = Double(value), s > 0, s <= 600 else { return usageError("--idle wants seconds from 0 to 600, got '\(value)'", help: idleInputHelp) }
            idle = s
        default: return usageError("unknown option '\(flag)'", help: idleInputHelp)
        }
    }
    guard !wlslider.isEmpty else { return usageError("--wlslider PATH is required", help: idleInputHelp) }
    let (path, seconds) = (wlslider, idle)
    switch blockingAwait({ () async throws -> IdleAfterInput in try await idleAfterInput(path, idle: seconds) }) {
    case .success(let outcome):
        let counters = outcome.counters
        printRow("idle \(fixed(idle, 0)) s after pointer, touch, keys, wheel (test compositor, focus kept)")
        printRow("  wake-ups (voluntary context switches)", "\(counters.voluntarySwitches) (+\(counters.involuntarySwitches) preempted)", "",
                 target: "0", verdict: verdict(counters.voluntarySwitches == 0))
        printRow("  CPU time (schedstat)", "\(fixed(Double(counters.cpuNanoseconds) / 1e6, 3)) ms")
        printRow("  (the input moved it: \(outcome.valueLines) value lines, \(outcome.frames) frames committed)")
        return 0
    case .failure(let error):
        printError("Error: \(error)")
        return 1
    }
}

private struct IdleAfterInput: Sendable {
    var counters: ProcessCounters
    /// Value lines printed and frames committed before the idle window: proof the input arrived.
    var valueLines: Int
    var frames: Int
}

private func idleAfterInput(_ wlslider: String, idle: Double) async throws -> IdleAfterInput {
    var configuration = Configuration()
    configuration.frameCallbacks = .realTime(intervalMilliseconds: 16)
    configuration.inputFraming = .afterEachEvent
    let compositor = try TestCompositor(configuration)
    defer { compositor.stop() }
    let process = try compositor.launch(wlslider)
    let pid = compositor.state.processes[process]!.pid
    let surface = try await compositor.waitForSurface(role: .toplevel)
    _ = try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }
    try await play(on: surface, compositor)
    // Let the last glide and the thumb's shrinking end (0.3 s each) with room to spare.
    try await Task.sleep(for: .seconds(1))
    guard let before = ProcessCounters.read(pid) else { throw BenchError("wlslider exited during the input") }
    let state = compositor.state
    let valueLines = state.processes[process]?.standardOutputLines.count ?? 0
    let frames = state.surfaces[surface]?.commitCount ?? 0
    try await Task.sleep(for: .milliseconds(Int(idle * 1000)))
    guard let after = ProcessCounters.read(pid) else { throw BenchError("wlslider exited while idle") }
    try compositor.signal(process, SIGTERM)
    _ = try await compositor.waitForExit(process)
    return IdleAfterInput(counters: after - before, valueLines: valueLines, frames: frames)
}

/// A little of everything a user does: hover and click, a touch drag, arrow keys held long enough
/// to repeat, a wheel turn. The pointer stays over the slider and the keyboard focus on it.
private func play(on surface: SurfaceID, _ compositor: TestCompositor) async throws {
    _ = try compositor.keyboard.enter(surface)
    _ = try compositor.pointer.enter(surface, x: 100, y: 24)
    try compositor.pointer.motion(x: 120, y: 24)
    _ = try compositor.pointer.button(.left, .pressed)
    try await Task.sleep(for: .milliseconds(100))
    try compositor.pointer.motion(x: 200, y: 24)
    _ = try compositor.pointer.button(.left, .released)
    _ = try compositor.touch.down(on: surface, x: 60, y: 24)
    for x in stride(from: 70.0, through: 250, by: 20) {
        try compositor.touch.motion(x: x, y: 24)
        try await Task.sleep(for: .milliseconds(16))
    }
    _ = try compositor.touch.up()
    _ = try compositor.keyboard.press("Right")
    try await Task.sleep(for: .milliseconds(800))  // past the 600 ms repeat delay
    _ = try compositor.keyboard.release("Right")
    try compositor.keyboard.tap("Left")
    try compositor.pointer.wheel(steps: 2)
}
