// What the end-to-end scenarios share: the real `wlslider` executable started under the test
// compositor with `--format json --precision 6`, its value stream parsed, frames stepped on the
// virtual clock, and the thumb found in the committed pixels.
//
// Synchronisation without sleeps: after every action the harness pings the client
// (`xdg_wm_base.ping`) and waits for the pong. libwayland hands the client its events in order, so
// once the pong is back the client has handled everything sent before the ping (a frame callback,
// a touch) and its requests (the commit it drew) have been recorded. Its stdout lines were written
// before those requests: their pipe is readable by the time the pong arrives, so the compositor
// reads both in the same dispatch.
//
// Time: see ``TimeKeeper`` for how the virtual clock is kept believable to wlslider's own clock.
import Foundation
import Testing
import TestCompositor

/// One line of `wlslider --format json`: `{"t":ms,"value":v,"phase":"..."}`.
struct ValueLine: Decodable, Equatable, CustomStringConvertible {
    /// Engine time in whole milliseconds since wlslider started.
    let t: Int64
    let value: Double
    let phase: String

    var description: String { "\(t) ms: \(value) (\(phase))" }

    static func parse(_ text: String) throws -> ValueLine {
        do {
            return try JSONDecoder().decode(ValueLine.self, from: Data(text.utf8))
        } catch {
            throw HarnessError("wlslider printed a line that is not a JSON value line: \(text)")
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `wlslider` executable built next to the test bundle (`swift build` before `swift test`), or
/// the one `WLSLIDER_UNDER_TEST` names (scripts/test runs the scenarios again on the release binary
/// as it ships).
func wlsliderExecutable() throws -> String {
    let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let path = ProcessInfo.processInfo.environment["WLSLIDER_UNDER_TEST"]
        ?? URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("wlslider").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw HarnessError("no wlslider executable at \(path): run `swift build` with the same --scratch-path before `swift test`")
    }
    return path
}

/// A running wlslider and the compositor it draws on.
///
/// Not Sendable on purpose: one test task drives it.
final class SliderRun {
    let compositor: TestCompositor
    let process: ProcessID
    let client: ClientID
    let surface: SurfaceID
    /// The first commit with a buffer.
    let firstCommit: Commit
    private var time: TimeKeeper
    /// How many lines ``takeLines()`` has handed out.
    private var taken = 0
    /// Virtual milliseconds minus engine milliseconds (as the value lines print them), from the
    /// last answered frame callback that printed a line; nil before one did.
    private var virtualMinusEngine: Int64?

    private init(compositor: TestCompositor, process: ProcessID, client: ClientID, surface: SurfaceID, firstCommit: Commit) {
        self.compositor = compositor
        self.process = process
        self.client = client
        self.surface = surface
        self.firstCommit = firstCommit
        time = TimeKeeper(launchVirtual: compositor.state.time)
    }

    /// Starts wlslider (`--format json --precision 6` plus `arguments`) and waits until its first
    /// frame is committed and it has bound every device the seat has.
    ///
    /// The virtual clock answers frame callbacks only when a test steps it, which to wlslider
    /// looks like a window whose callbacks are withheld; `lateFrameMilliseconds` (nil: wlslider's
    /// own rule, a frame and a half) is how long it waits before it drives the value stream
    /// without them, long by default so that the stream follows the stepped frames alone.
    static func launch(
        _ compositor: TestCompositor, _ arguments: [String] = [], role: SurfaceRole = .toplevel,
        standardInput: Bool = false, lateFrameMilliseconds: Int? = 600_000, environment extra: [String: String] = [:]
    ) async throws -> SliderRun {
        let environment = (lateFrameMilliseconds.map { ["WLSLIDER_LATE_FRAME_MS": String($0)] } ?? [:]).merging(extra) { $1 }
        let process = try compositor.launch(try wlsliderExecutable(), arguments: ["--format", "json", "--precision", "6"] + arguments,
                                            environment: environment, standardInput: standardInput)
        guard let pid = compositor.state.processes[process]?.pid else { throw HarnessError("\(process) vanished") }
        let client = try await compositor.waitForClient(pid: pid, timeout: .seconds(20))
        let surface = try await compositor.waitForSurface(role: role, of: client, timeout: .seconds(20))
        let first = try await compositor.waitForCommit(on: surface, after: 0, timeout: .seconds(20)) { $0.buffer != nil }
        let run = SliderRun(compositor: compositor, process: process, client: client, surface: surface, firstCommit: first)
        try await run.waitForDevices(compositor.state.seatCapabilities)
        try await run.sync()
        return run
    }

    /// Waits until the client got a device object for each of `capabilities`.
    func waitForDevices(_ capabilities: SeatCapabilities) async throws {
        let client = self.client
        let wanted = [(SeatCapabilities.pointer, "wl_seat.get_pointer"), (.keyboard, "wl_seat.get_keyboard"), (.touch, "wl_seat.get_touch")]
            .filter { capabilities.contains($0.0) }.map(\.1)
        try await compositor.waitUntil("\(client) to get \(wanted)", timeout: .seconds(10)) { state in
            wanted.allSatisfy { (state.clients[client]?.requests($0) ?? 0) > 0 }
        }
    }

    // MARK: synchronising

    /// Returns once the client has handled every event sent so far (ping, wait for the pong).
    /// Throws at once, with its exit status and stderr, when wlslider ends instead of answering.
    func sync() async throws {
        let serial = try compositor.ping(client)
        let client = self.client, process = self.process
        try await compositor.waitUntil("\(client) to answer ping \(serial)", timeout: .seconds(10)) { state in
            state.clients[client]?.pongs.contains(serial) == true || state.processes[process]?.exitStatus != nil
        }
        let state = compositor.state
        if state.clients[client]?.pongs.contains(serial) != true, let status = state.processes[process]?.exitStatus {
            throw HarnessError("wlslider ended (\(status)) instead of answering ping \(serial); stderr: \(standardError)")
        }
    }

    /// Sends touch events and waits until the client has handled them. Events with a timestamp
    /// first let the virtual clock catch up with the time passed since the last ones.
    func touch(_ events: [TouchEvent]) async throws {
        try await timestamped(events.contains(where: \.carriesTime)) { try compositor.touch.send(events) }
    }

    /// Sends pointer events and waits until the client has handled them (see ``touch(_:)``).
    func pointer(_ events: [PointerEvent]) async throws {
        try await timestamped(events.contains(where: \.carriesTime)) { try compositor.pointer.send(events) }
    }

    /// One wheel detent group as the compositor's seat version has it (value120 or discrete).
    func wheel(steps: Int32) async throws {
        try await timestamped(true) { try compositor.pointer.wheel(steps: steps) }
    }

    /// Presses a key (its repeats carry timestamps extrapolated from this press).
    func press(_ key: Key) async throws {
        try await timestamped(true) { try compositor.keyboard.press(key) }
    }

    /// Releases a key.
    func release(_ key: Key) async throws {
        try await timestamped(true) { try compositor.keyboard.release(key) }
    }

    /// Presses and releases a key.
    func tap(_ key: Key) async throws {
        try await timestamped(true) { try compositor.keyboard.tap(key) }
    }

    /// Sends input; when it carries the compositor's time, the virtual clock first catches up with
    /// real time, as a real compositor's would have, and the time it is sent at is noted.
    private func timestamped(_ carriesTime: Bool, _ send: () throws -> Void) async throws {
        if carriesTime {
            try await catchUp()
            time.sent(virtual: compositor.state.time, at: .now)
        }
        try send()
        try await sync()
        if carriesTime { time.stampHandled() }
    }

    /// Advances the virtual clock by `milliseconds` (answering the pending frame callback), waits
    /// until the client has drawn, and returns the lines not yet taken (see ``takeLines()``).
    @discardableResult
    func advance(by milliseconds: UInt32 = 16) async throws -> [ValueLine] {
        try await pace(milliseconds)
        let printedBefore = try lines().count
        let sending = ContinuousClock.now
        let answered = try compositor.advanceClock(by: milliseconds)
        if answered > 0 { time.sent(virtual: compositor.state.time, at: sending) }
        try await sync()
        if answered > 0 {
            time.stampHandled()
            let printed = try lines()
            if printed.count > printedBefore, let line = printed.last { virtualMinusEngine = Int64(compositor.state.time) - line.t }
        }
        return try takeLines()
    }

    /// Moves the virtual clock, without answering frame callbacks, to just past engine time `t`
    /// (milliseconds, as a value line prints it): after something wlslider did on its own timer
    /// and printed at `t`, the frames stepped next follow on from that moment. (``catchUp()`` moves
    /// the clock to the latest time wlslider *may* have reached, which includes however long the
    /// test took to notice.) Needs a frame stepped before, which printed a line.
    func catchUp(toEngineTime t: Int64) async throws {
        try await sync()
        guard let offset = virtualMinusEngine else { throw HarnessError("no stepped frame printed a line yet: the engine's time base is unknown") }
        // Lines round to the millisecond: 2 ms more is past `t` whatever the rounding on both sides.
        let target = t + offset + 2
        let now = Int64(compositor.state.time)
        guard target > now else { return }
        try compositor.advanceClock(by: UInt32(target - now), answeringFrameCallbacks: false)
    }

    /// Moves the virtual clock, without answering frame callbacks, past the latest time wlslider
    /// may have given anything (see ``TimeKeeper``): call it after an event without a timestamp (a
    /// cancel, a lost device, a stdin command, a new scale) before stepping frames. Input sent
    /// through this harness does it by itself. Returns how many milliseconds the clock moved.
    @discardableResult
    func catchUp() async throws -> UInt32 {
        try await sync()
        let now = compositor.state.time
        let target = time.catchUpTarget(now: .now)
        guard target > now else { return 0 }
        try compositor.advanceClock(by: target - now, answeringFrameCallbacks: false)
        return target - now
    }

    /// Steps `count` frames of `milliseconds`; returns the lines not yet taken.
    @discardableResult
    func advance(frames count: Int, by milliseconds: UInt32 = 16) async throws -> [ValueLine] {
        var printed: [ValueLine] = []
        for _ in 0..<count { printed += try await advance(by: milliseconds) }
        return printed
    }

    /// Steps frames until the client stops asking for them (its animations are over), at most
    /// `maximumFrames`; returns the lines not yet taken, those printed before the call included.
    @discardableResult
    func settle(by milliseconds: UInt32 = 16, maximumFrames: Int = 100) async throws -> [ValueLine] {
        try await sync()
        var printed = try takeLines()
        for _ in 0..<maximumFrames {
            guard try compositor.surface(surface).frameCallbacksPending > 0 else { return printed }
            printed += try await advance(by: milliseconds)
        }
        throw HarnessError("still animating after \(maximumFrames) frames of \(milliseconds) ms; printed: \(printed)")
    }

    /// Lets frames come in real time, as a real compositor's do, until `done` holds for the lines
    /// printed meanwhile; for what runs on wlslider's own timers (key repeat). Every 16 ms the
    /// clock moves to just past wlslider's time (``catchUp()``) and the pending frame callback, if
    /// any, is answered, so every frame shows progress.
    @discardableResult
    func framesInRealTime(until what: String, timeout: Duration = .seconds(20), _ done: ([ValueLine]) -> Bool) async throws -> [ValueLine] {
        let deadline = ContinuousClock.now + timeout
        var printed: [ValueLine] = []
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(16))
            try await catchUp()
            if try compositor.surface(surface).frameCallbacksPending > 0 {
                printed += try await advance(by: 1)
            } else {
                printed += try takeLines()
            }
            if done(printed) { return printed }
        }
        throw HarnessError("after \(timeout) of real-time frames still waiting for \(what); printed: \(printed)")
    }

    private func pace(_ milliseconds: UInt32) async throws {
        if let wait = time.delayBeforeAdvancing(to: compositor.state.time &+ milliseconds, now: .now) {
            try await Task.sleep(for: wait)
        }
    }

    // MARK: the value stream

    /// Every line printed so far.
    func lines() throws -> [ValueLine] {
        try (compositor.state.processes[process]?.standardOutputLines ?? []).map(ValueLine.parse)
    }

    /// The lines printed since the last call (or since launch), which are then taken.
    func takeLines() throws -> [ValueLine] {
        let all = try lines()
        defer { taken = all.count }
        return Array(all.dropFirst(taken))
    }

    /// The last value printed.
    func lastValue() throws -> Double {
        guard let last = try lines().last else { throw HarnessError("wlslider printed nothing yet") }
        return last.value
    }

    // MARK: pixels

    /// The pixels of the last committed buffer.
    func lastImage() throws -> Image {
        guard let image = try compositor.surface(surface).lastImage else { throw HarnessError("\(surface) has no buffer") }
        return image
    }

    /// The thumb in the last committed buffer.
    func thumb() throws -> ThumbExtent {
        let image = try lastImage()
        guard let thumb = ThumbExtent(in: image) else { throw HarnessError("no thumb (white pixels) in \(image)") }
        return thumb
    }

    // MARK: ending

    /// Stops wlslider with SIGTERM and checks it exits with status 0 and nothing on stderr.
    func terminate(allowingStandardError: Bool = false) async throws {
        try compositor.signal(process, SIGTERM)
        let status = try await compositor.waitForExit(process, timeout: .seconds(10))
        #expect(status == .exited(0), "wlslider ended: \(status); stderr: \(standardError)")
        if !allowingStandardError { #expect(standardError.isEmpty, "wlslider wrote to stderr: \(standardError)") }
    }

    var standardError: String { compositor.state.processes[process]?.standardError ?? "" }
}

/// Keeps the test compositor's virtual clock believable to wlslider's clock.
///
/// wlslider's engine time is the compositor's timestamps (frame callbacks, input events), mapped
/// onto its own monotonic clock by the first one; what carries no timestamp (a `wl_touch.cancel`,
/// a device that goes away, a stdin command, the redraw right after input) happens at "the last
/// timestamp plus the real time since it arrived" (Sources/SliderApp/Clock.swift). Real
/// compositors' clocks run at real speed, so both agree; a virtual clock stepped by a test does
/// not, and two rules keep it within what wlslider can follow:
/// - Not too far ahead. wlslider resynchronises when the compositor's clock runs more than a
///   second ahead of its own, which would hold animations still for that second; the harness keeps
///   the virtual clock at most half a second ahead of real time (``delayBeforeAdvancing(to:now:)``),
///   counted from anchors chosen so that the estimate errs on the safe side.
/// - Not behind an extrapolation. After an event without a timestamp (or the redraw right after
///   input), an input or frame callback stamped before wlslider's extrapolated time would start
///   or show nothing new (the engine's time never goes back; the redraw would find nothing
///   changed and fall back to a timer instead of a frame callback). ``catchUpTarget(now:)`` is the
///   latest time wlslider can have extrapolated to, from every timestamp the harness sent and when
///   it sent it; the harness moves the clock there (without answering frame callbacks) before
///   each input it sends, as real time would have moved a real compositor's clock.
struct TimeKeeper {
    /// The virtual time at launch: at or before wlslider's first timestamp.
    let launchVirtual: UInt32
    /// Real time once wlslider has handled the first timestamp sent, an input event's or a frame
    /// callback's: just after wlslider's clock took its base from it. Anchored at the first
    /// answered frame callback only, it lay as late as the test's input before that frame had
    /// taken (seconds, on a loaded machine): the virtual clock then looked that far ahead, and
    /// the harness slept before the next frame for so long (over 10 s in a CI run) that wlslider
    /// took the stamp for a stale one and resynchronised, ending a glide in one frame.
    private var realAnchor: ContinuousClock.Instant?
    private let origin = ContinuousClock.now
    /// The largest (virtual ms − real ms since `origin`) over every timestamp sent, taken when sent.
    private var latestOffset = -Double.infinity

    init(launchVirtual: UInt32) { self.launchVirtual = launchVirtual }

    private func milliseconds(_ instant: ContinuousClock.Instant) -> Double {
        let d = origin.duration(to: instant)
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) * 1e-15
    }

    /// A timestamp `virtual` is about to be sent (or a frame callback answered) at `instant`.
    mutating func sent(virtual: UInt32, at instant: ContinuousClock.Instant) {
        latestOffset = max(latestOffset, Double(virtual) - milliseconds(instant))
    }

    /// A timestamp (input or frame callback) was sent and handled: anchors real time for
    /// ``delayBeforeAdvancing(to:now:)``.
    mutating func stampHandled() {
        if realAnchor == nil { realAnchor = .now }
    }

    /// How long to wait before moving the virtual clock to `virtual`, so that it runs at most half a
    /// second ahead of real time; nil for no wait.
    func delayBeforeAdvancing(to virtual: UInt32, now: ContinuousClock.Instant) -> Duration? {
        guard let realAnchor else { return nil }
        let d = realAnchor.duration(to: now)
        let real = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) * 1e-15
        let ahead = Double(virtual &- launchVirtual) - real
        return ahead > 500 ? .milliseconds(Int((ahead - 500).rounded(.up))) : nil
    }

    /// The virtual time at or after which frame callbacks show progress past anything wlslider
    /// can have extrapolated by `now`.
    func catchUpTarget(now: ContinuousClock.Instant) -> UInt32 {
        guard latestOffset.isFinite else { return 0 }
        return UInt32(max(0, (latestOffset + milliseconds(now)).rounded(.up) + 1))
    }
}

extension TouchEvent {
    /// Whether the event carries the compositor's time (down, motion, up).
    var carriesTime: Bool {
        switch self {
        case .down, .motion, .up: true
        default: false
        }
    }
}

extension PointerEvent {
    /// Whether the event carries the compositor's time (motion, button, axis, axis_stop).
    var carriesTime: Bool {
        switch self {
        case .motion, .button, .axis, .axisStop: true
        default: false
        }
    }
}

/// The thumb's extent in a committed image: the bounding box of its white pixels.
///
/// The thumb is white (#FFFFFF) and nothing else in the default style is light: the background is
/// #1C1C1E, the track #48484A, the fill #0A84FF (red 0x0A). A pixel counts when all three channels
/// are a little more than half way to white (0x90), i.e. the thumb covers at least about half of
/// it; so the box is the thumb's diameter to within a pixel, whatever the antialiasing.
struct ThumbExtent: Equatable, CustomStringConvertible {
    let minX: Int, maxX: Int, minY: Int, maxY: Int

    init?(in image: Image, threshold: UInt32 = 0x90) {
        var x0 = Int.max, x1 = -1, y0 = Int.max, y1 = -1
        for y in 0..<image.height {
            for x in 0..<image.width where Self.isWhite(image[x, y], threshold) {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return nil }
        (minX, maxX, minY, maxY) = (x0, x1, y0, y1)
    }

    static func isWhite(_ pixel: UInt32, _ threshold: UInt32) -> Bool {
        (pixel >> 16) & 0xff >= threshold && (pixel >> 8) & 0xff >= threshold && pixel & 0xff >= threshold
    }

    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }
    var centerX: Double { Double(minX + maxX + 1) / 2 }
    var centerY: Double { Double(minY + maxY + 1) / 2 }
    var description: String { "thumb \(width)×\(height) at (\(centerX), \(centerY))" }
}

/// The default slider geometry at scale 1 (320×48; see Sources/SliderEngine/Layout.swift): the
/// grown thumb's radius (20) plus 2 px of shadow room insets the thumb centre's travel to 22…298.
enum DefaultLayout {
    static let inset = 22.0
    static let travel = 276.0
    static let centerY = 24.0

    /// The x of the thumb centre for a value of the default 0…100 range.
    static func x(forValue v: Double) -> Double { inset + v / 100 * travel }
    /// The value whose thumb centre is at `x` (clamped to the range).
    static func value(atX x: Double) -> Double { min(max((x - inset) / travel, 0), 1) * 100 }
}

/// Core Animation's timing curve as a cubic Bézier, solved by bisection: the reference the value
/// stream is checked against, computed independently of the engine's Newton solver.
struct ReferenceCurve {
    let x1: Double, y1: Double, x2: Double, y2: Double
    static let easeIn = ReferenceCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)

    func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if Self.bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return Self.bezier((lo + hi) / 2, y1, y2)
    }

    private static func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }
}

extension SliderRun {
    /// wlslider's memory map (`/proc/PID/maps`): which libraries it has loaded. Read whole
    /// (`readFile`: Foundation's reader stops after the first page and misses libraries further
    /// down); the process may map and unmap between the pages, so two whole reads in a row must agree.
    func maps() throws -> String {
        guard let pid = compositor.state.processes[process]?.pid else { throw HarnessError("\(process) vanished") }
        func snapshot() -> String { String(decoding: readFile("/proc/\(pid)/maps"), as: UTF8.self) }
        var previous = snapshot()
        for _ in 0..<50 {
            let current = snapshot()
            if current == previous {
                // Every wlslider links libwayland-client: without its line the map is not whole,
                // and a check that a library is absent would prove nothing.
                guard current.contains("libwayland-client") else { throw HarnessError("/proc/\(pid)/maps read without libwayland-client") }
                return current
            }
            previous = current
            usleep(20_000)
        }
        throw HarnessError("/proc/\(pid)/maps kept changing for a second")
    }

    /// The shared objects in `maps()`, one path each, for failure messages.
    func libraries() throws -> [String] {
        Array(Set(try maps().split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }.filter { $0.contains(".so") })).sorted()
    }
}
