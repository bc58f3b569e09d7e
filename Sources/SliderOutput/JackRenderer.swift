import Synchronization
import SliderEngine

/// One JACK period as the process callback sees it: what to fill, and where it lies in time.
public struct JackPeriod {
    /// Frames in the period.
    public var frames: Int
    /// The graph's sample rate.
    public var sampleRate: Double
    /// JACK's frame counter at the first frame (`jack_get_cycle_times`' current_frames).
    public var firstFrame: UInt32
    /// JACK's clock (µs) at the period's start, nil when JACK gave none.
    public var microseconds: UInt64?
    /// The audio port's buffer, `frames` floats; nil without the port.
    public var audio: UnsafeMutablePointer<Float>?
    /// The MIDI port's buffer (cleared already); nil without the port.
    public var midi: MIDIEventBuffer?
    /// The graph freewheels: periods come back to back, as fast as the clients compute them.
    /// `microseconds` is then JACK's clock when the period is computed.
    public var freewheeling: Bool

    /// Creates a period.
    public init(frames: Int, sampleRate: Double, firstFrame: UInt32, microseconds: UInt64?,
                audio: UnsafeMutablePointer<Float>?, midi: MIDIEventBuffer?, freewheeling: Bool = false) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.firstFrame = firstFrame
        self.microseconds = microseconds
        self.audio = audio
        self.midi = midi
        self.freewheeling = freewheeling
    }
}

/// A JACK MIDI buffer and the function that writes an event into it (`jack_midi_event_reserve`
/// plus a copy): a plain C function pointer, so writing allocates nothing.
public struct MIDIEventBuffer {
    /// Writes `size` bytes at frame `time`; false when the buffer is full.
    public typealias Write = @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafePointer<UInt8>?, Int) -> Bool
    /// The port buffer.
    public let buffer: UnsafeMutableRawPointer
    /// The writer.
    public let write: Write

    /// Pairs a buffer with its writer.
    public init(buffer: UnsafeMutableRawPointer, write: Write) {
        self.buffer = buffer
        self.write = write
    }
}

/// The JACK process callback's work: fills each period of the `value` port with the presented
/// value at every frame's time, and the `midi` port with a control change wherever the 7- or
/// 14-bit value changes, each at its own frame.
///
/// **Real time.** `render(_:)` never allocates, locks, logs or makes a system call: it takes the
/// newest ``JackFeed`` from a wait-free ``FeedExchange``, evaluates the course (plain numbers,
/// `PresentedValue`), and reports back through atomics. Everything it owns is allocated in `init`.
///
/// **Time.** Each frame gets an engine time, and the port carries the engine's own
/// `value(at:)` at that time (mapped by `--scale-output`/`--output-curve`). Frames are stamped
/// from JACK's cycle times (`current_usecs`, turned into engine time by the feed's clock
/// reference) *minus one period*: a period is computed while it is about to play, so a target set
/// on the main thread at time t is always there in time for the frame stamped t, and a glide is
/// never cut at its start. Within a glide the stamps advance by exactly 1 / sample rate per frame
/// (anchored to JACK's frame counter), so a 0.25 s glide spans exactly 0.25 × rate frames at any
/// period size; while the value rests the anchor follows the cycle times again, so the sound
/// card's clock never drifts away from the engine's. A gap of more than ``resyncThreshold``
/// between the two re-anchors at once, glide or not.
///
/// **Freewheeling.** While the graph freewheels (a DAW's export), periods come back to back, far
/// faster than real time, and frames have nothing to do with time: stamped from the frame counter,
/// the value would run ahead of the slider, and re-anchored to the clock, it would run back,
/// again and again (a glide's control changes went up and down some hundred times). Each period
/// then carries one value, the one at the clock's time (less one period, as always), never
/// earlier than the last one: the value follows the slider in real time, never goes back, and
/// ends on the target.
///
/// **Changes within a period.** A feed's course holds from its `since` time; frames stamped
/// earlier take the course before it, so a target set mid-period changes the value from its own
/// frame on, not from the period's start.
public final class JackRenderer: @unchecked Sendable {
    /// Where the main thread publishes courses.
    public let exchange: FeedExchange
    private let mapping: OutputMapping
    private let control: MIDIControl?
    /// The course in force (from `current.course.since`) and the one before it.
    private var current: JackFeed
    private var previous: JackFeed
    private var samplers = (current: PresentedValue.Sampler(), previous: PresentedValue.Sampler())
    /// JACK frame counter ↔ engine time while the stamps run at the sample rate.
    private var anchor: (frame: UInt32, time: Double)?
    /// The stamp of the last frame rendered: a freewheeling period is never stamped earlier.
    private var lastStamp = -Double.infinity
    private var sender = ControlSender()

    /// The generation of the newest feed whose course the output has come to rest on: a whole
    /// period on its target and, with MIDI, the target's control value sent.
    private let settled = Atomic<UInt64>(0)
    /// Periods rendered.
    private let periods = Atomic<UInt64>(0)
    /// MIDI events that found the port buffer full (each was sent later).
    private let midiFull = Atomic<UInt64>(0)

    /// How far the frame-counter stamps may stray from the cycle times during a glide before they
    /// re-anchor. Generous: a graph whose periods come late and then in a burst (jackd without
    /// real-time scheduling on a busy machine) makes the cycle times wander by several periods,
    /// and following them would bend the glide; the sound card's own drift is far smaller.
    public static let resyncThreshold = 0.05
    /// The least time between two control changes (14-bit values would otherwise change at
    /// almost every frame): at most 1000 a second, a fast hardware controller's rate.
    public static let controlSpacing = 0.001

    /// A renderer starting from `initial`; `control` adds the MIDI control changes.
    public init(initial: JackFeed, mapping: OutputMapping, control: MIDIControl?) {
        exchange = FeedExchange(initial: initial)
        self.mapping = mapping
        self.control = control
        current = initial
        previous = initial
    }

    /// Main thread: the generation the output has settled on (see ``FeedExchange``).
    public var settledGeneration: UInt64 { settled.load(ordering: .acquiring) }
    /// Main thread: how many periods were rendered.
    public var periodCount: UInt64 { periods.load(ordering: .relaxed) }
    /// Main thread: how often a control change had to wait for room in the MIDI buffer.
    public var midiBufferFullCount: UInt64 { midiFull.load(ordering: .relaxed) }

    /// The process callback: fills one period. Real-time safe.
    public func render(_ period: JackPeriod) {
        if let feed = exchange.take() {
            previous = current
            current = feed
            samplers = (PresentedValue.Sampler(), samplers.current)
        }
        guard period.frames > 0, period.sampleRate > 0 else { return }
        let start = period.freewheeling ? freewheelingStamp(of: period) : stamp(of: period)
        // The loop works on locals: no access to this object's storage per frame.
        var courses = (current: current.course, previous: previous.course)
        var samplers = self.samplers
        var sender = self.sender
        var full: UInt64 = 0
        if period.freewheeling || Self.isResting(courses.current, from: start) {
            let course = start < courses.current.since ? courses.previous : courses.current
            full = Self.renderResting(period, course: course, at: start, mapping: mapping, control: control, sender: &sender)
            lastStamp = start
        } else {
            let step = 1 / period.sampleRate
            let currentRange = SliderRange(min: courses.current.minimum, max: courses.current.maximum)
            let previousRange = SliderRange(min: courses.previous.minimum, max: courses.previous.maximum)
            for index in 0..<period.frames {
                let t = start + Double(index) * step
                let early = t < courses.current.since
                let value = early ? courses.previous.value(at: t, sampler: &samplers.previous)
                                  : courses.current.value(at: t, sampler: &samplers.current)
                let range = early ? previousRange : currentRange
                period.audio?[index] = mapping.mapToFloat(value, range: range)
                if let midi = period.midi, let control,
                   !sender.send(control, for: value, range: range, at: index, into: midi, rate: period.sampleRate) {
                    full += 1
                }
            }
            lastStamp = start + Double(period.frames - 1) * step
        }
        self.samplers = samplers
        self.sender = sender
        courses = (current.course, previous.course)
        if full > 0 { midiFull.add(full, ordering: .relaxed) }
        // Settled: this whole period stood on the target (so the port's last period before the
        // client closes is one), and the target's control change has gone out.
        let range = SliderRange(min: courses.current.minimum, max: courses.current.maximum)
        if Self.isResting(courses.current, from: start)
            && (control.map { sender.sent == $0.quantize(courses.current.target, range: range) } ?? true) {
            settled.store(current.generation, ordering: .releasing)
        }
        periods.add(1, ordering: .relaxed)
    }

    /// True when `course` applies from `t` on and the value stands still there.
    @inline(__always)
    private static func isResting(_ course: PresentedValue, from t: Double) -> Bool {
        course.since <= t && course.endTime <= t
    }

    /// The engine time of the period's first frame (see the type's documentation).
    private func stamp(of period: JackPeriod) -> Double {
        let length = Double(period.frames) / period.sampleRate
        let measured = period.microseconds.map { current.engineTime(ofJackMicroseconds: $0) - length }
        let predicted = anchor.map { $0.time + Double(Int32(bitPattern: period.firstFrame &- $0.frame)) / period.sampleRate }
        var start = predicted ?? measured ?? current.course.since
        if let measured {
            if let predicted {
                if abs(predicted - measured) > Self.resyncThreshold || Self.isResting(current.course, from: Swift.min(predicted, measured)) {
                    start = measured
                }
            } else {
                start = measured
            }
        }
        if start != predicted { anchor = (period.firstFrame, start) }
        return start
    }

    /// The engine time of a freewheeling period (see the type's documentation): the clock's, less
    /// one period, and never before the last frame rendered. The frame counter is no guide.
    private func freewheelingStamp(of period: JackPeriod) -> Double {
        anchor = nil
        let length = Double(period.frames) / period.sampleRate
        let measured = period.microseconds.map { current.engineTime(ofJackMicroseconds: $0) - length } ?? lastStamp
        return Swift.max(measured, lastStamp)
    }

    /// A period in which the value stands still: one value for every frame. Returns how often
    /// the MIDI buffer was full.
    private static func renderResting(_ period: JackPeriod, course: PresentedValue, at start: Double, mapping: OutputMapping,
                                      control: MIDIControl?, sender: inout ControlSender) -> UInt64 {
        let value = course.value(at: start)
        let range = SliderRange(min: course.minimum, max: course.maximum)
        period.audio?.update(repeating: mapping.mapToFloat(value, range: range), count: period.frames)
        guard let midi = period.midi, let control else { return 0 }
        let target = control.quantize(value, range: range)
        guard target != sender.sent else {
            sender.sinceEvent = Swift.min(sender.sinceEvent + period.frames, Int.max / 2)
            return 0
        }
        var full: UInt64 = 0
        for index in 0..<period.frames {
            if !sender.send(control, for: value, range: range, at: index, into: midi, rate: period.sampleRate) { full += 1 }
            if sender.sent == target {
                sender.sinceEvent += period.frames - 1 - index
                break
            }
        }
        return full
    }
}

/// The MIDI side of the renderer: the last control value sent and how long ago.
struct ControlSender {
    /// The last value sent; -1 before the first.
    var sent: Int32 = -1
    /// Frames since the last event.
    var sinceEvent = Int.max / 2

    /// Called once per frame: sends the control value of `value` at frame `index` when it differs
    /// from the last one sent and the last event is at least `JackRenderer.controlSpacing` old.
    /// False when it should have sent but the buffer was full (it tries again next frame).
    @inline(__always)
    mutating func send(_ control: MIDIControl, for value: Double, range: SliderRange, at index: Int,
                       into midi: MIDIEventBuffer, rate: Double) -> Bool {
        sinceEvent += 1
        let q = control.quantize(value, range: range)
        guard q != sent, Double(sinceEvent) >= JackRenderer.controlSpacing * rate else { return true }
        let ok: Bool
        if control.fourteenBit {
            ok = Self.write(midi, at: index, control.status, control.controller, UInt8(truncatingIfNeeded: q >> 7))
                && Self.write(midi, at: index, control.status, control.controller + 32, UInt8(truncatingIfNeeded: q & 0x7f))
        } else {
            ok = Self.write(midi, at: index, control.status, control.controller, UInt8(truncatingIfNeeded: q))
        }
        guard ok else { return false }
        sent = q
        sinceEvent = 0
        return true
    }

    @inline(__always)
    private static func write(_ midi: MIDIEventBuffer, at index: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        var bytes = (a, b, c)
        return withUnsafeBytes(of: &bytes) { raw in
            midi.write(midi.buffer, UInt32(index), raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 3)
        }
    }
}
