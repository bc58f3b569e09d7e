import Posix
import SliderEngine

/// `--jack` and `--midi-cc`: wlslider as a JACK client (jack2, or PipeWire's JACK under `pw-jack`).
/// The `value` port carries the presented value at the graph's sample rate, each frame sampled
/// from the engine's course at its own time; the `midi` port sends a control change wherever the
/// 7- or 14-bit value changes, at its frame. See ``JackRenderer`` for the real-time side.
///
/// The main thread's side: `publish(_:engineNow:)` after every change of the engine (a new
/// target, a range change, a gesture) hands the new course over, wait-free; nothing per frame.
///
/// Failure rules: a missing library or server is a `SinkSetupError` (one line, exit 1); a port
/// the server cannot mark as a control signal is a warning (``takeWarnings()``). The server
/// going away later makes `pollDescriptor` readable: `handle()` then returns the one line to print,
/// and the sink ends (wlslider goes on with its other sinks). On the way out, `finish` publishes
/// the settled course and waits (bounded) until a whole period has ended on the target and the
/// target's control change is sent, before the client closes.
public final class JackOutput {
    /// What `--jack`, `--jack-name`, `--jack-connect` and `--midi-cc` ask for.
    public struct Options: Equatable, Sendable {
        /// The client name (`--jack-name`, default `wlslider`).
        public var name: String
        /// The `value` port (`--jack`).
        public var audio: Bool
        /// The `midi` port (`--midi-cc`).
        public var midi: MIDIControl?
        /// Ports to connect to (`--jack-connect`, repeatable); each gets the port of its kind.
        public var connections: [String]

        /// The default client name.
        public static let defaultName = "wlslider"

        /// Creates options.
        public init(name: String = Options.defaultName, audio: Bool, midi: MIDIControl?, connections: [String] = []) {
            self.name = name
            self.audio = audio
            self.midi = midi
            self.connections = connections
        }
    }

    private let client: JackClient
    private let renderer: JackRenderer
    private var published: PresentedValue
    private var generation: UInt64 = 1
    private var ended = false
    private var warnings = WarningLog()
    /// The name the server gave the client (`wlslider`, or `wlslider-01` when taken).
    public var clientName: String { client.name }
    /// Xruns the server reported to the client: the graph's, whoever was late (jackd's log names
    /// the client that was). Not reported by wlslider; for measurements.
    public var xrunCount: UInt64 { client.xrunCount }
    /// The process callback's side, for measurements.
    public var periodsRendered: UInt64 { renderer.periodCount }

    /// Opens the client, registers and connects its ports and starts the process callback with
    /// `course` (the slider's presentation now). `engineNow` reads the engine's clock.
    public init(options: Options, mapping: OutputMapping, course: PresentedValue, engineNow: () -> Double) throws(SinkSetupError) {
        let option = options.audio ? "--jack" : "--midi-cc"
        do throws(JackClient.Failure) {
            client = try JackClient(name: options.name)
            if try !client.registerPorts(audio: options.audio, midi: options.midi != nil) {
                warnings.once(key: "signal-type", "--jack: \(client.name):value is not marked as a control signal (jack_set_property "
                    + "of signal-type CV failed: the server keeps no metadata yet; under PipeWire the session manager makes it); "
                    + "it carries the values all the same")
            }
            published = course
            renderer = JackRenderer(initial: Self.feed(course, engineNow: engineNow, generation: 1), mapping: mapping,
                                    control: options.midi)
            try client.activate(renderer)
            for destination in options.connections { try client.connect(to: destination) }
        } catch {
            throw SinkSetupError("\(option): \(error.description)")
        }
    }

    deinit { client.close() }

    /// Warnings not yet printed (each distinct one once).
    public func takeWarnings() -> [String] { warnings.take() }
    /// Whether `takeWarnings` has any to hand over (a cheap look, once a frame).
    public var hasWarnings: Bool { warnings.hasQueued }

    /// The descriptor to poll for POLLIN: readable once the server shut the client down; nil once
    /// the sink has ended.
    public var pollDescriptor: Descriptor? { ended ? nil : client.notifyDescriptor }

    /// True once the sink has ended (the server went away).
    public var hasEnded: Bool { ended }

    /// Hands the engine's course over to the process callback when it changed. Wait-free, no allocation.
    public func publish(_ course: PresentedValue, engineNow: () -> Double) {
        guard !ended, !course.hasSameCourse(as: published) else { return }
        published = course
        generation += 1
        renderer.exchange.publish(Self.feed(course, engineNow: engineNow, generation: generation))
    }

    /// Resolves a readable `pollDescriptor`: the one line to print when the server shut the client
    /// down (the sink has then ended), else nil.
    public func handle() -> String? {
        guard !ended else { return nil }
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { try? client.notifyDescriptor.read(into: $0) }
        guard let reason = client.shutdownReason() else { return nil }
        ended = true
        let why = reason.isEmpty ? "" : " (\(reason))"
        return "jack: the server shut \(client.name) down\(why); no more values go to JACK"
    }

    /// The way out: hands over `course` (the engine settled on its target) and waits up to
    /// `timeoutMilliseconds` plus two of the graph's periods until a period has ended on the
    /// target (and its control change is sent), then closes the client. Returns the line to print
    /// when the graph did not run in time.
    ///
    /// Two periods: the course holds from now, a period is stamped one period before it plays,
    /// so the first period stamped on the target starts playing up to two periods from now (over
    /// a second at 8 kHz with 4096-frame periods).
    public func finish(course: PresentedValue, engineNow: () -> Double, timeoutMilliseconds: Int32 = 1000) -> [String] {
        var lines: [String] = []
        if !ended {
            published = course
            generation += 1
            let final = generation
            renderer.exchange.publish(Self.feed(course, engineNow: engineNow, generation: final))
            let rate = client.sampleRate
            let periods = rate > 0 ? 2000 * Double(client.bufferSize) / Double(rate) : 0
            let timeoutMilliseconds = timeoutMilliseconds + Int32(periods.rounded(.up))
            let deadline = MonotonicInstant.now().advanced(byMilliseconds: Double(timeoutMilliseconds))
            while renderer.settledGeneration < final && client.shutdownReason() == nil {
                let left = EventLoop.pollTimeout(now: .now(), deadline: deadline)
                guard left > 0 else {
                    lines.append("jack: the graph did not run a period within \(timeoutMilliseconds) ms; the last value may not have reached \(client.name)")
                    break
                }
                _ = try? client.notifyDescriptor.poll(.readable, timeoutMilliseconds: Swift.min(left, 2))
            }
        }
        ended = true
        client.close()
        return lines
    }

    private static func feed(_ course: PresentedValue, engineNow: () -> Double, generation: UInt64) -> JackFeed {
        // JACK's clock read on both sides of the engine's, so the pair is simultaneous to within
        // the few hundred nanoseconds between the reads.
        let before = JackClient.jackTime()
        let now = engineNow()
        let after = JackClient.jackTime()
        return JackFeed(course: course, jackMicroseconds: before + (after - before) / 2, engineTime: now, generation: generation)
    }
}
