import Synchronization
import SliderEngine

/// What the main thread hands the JACK process callback: the presented value's course, and how to
/// turn JACK's clock into engine time. Plain numbers only, so copying it allocates and retains
/// nothing.
public struct JackFeed: Sendable {
    /// The presented value's course from `course.since` on.
    public var course: PresentedValue
    /// A JACK clock reading (µs, `jack_get_time`) and the engine time at that moment, read
    /// together on the main thread: engine time = `engineTime` + (JACK µs − `jackMicroseconds`) / 10⁶.
    /// Re-read with every feed, so the mapping follows however the two clocks drift (jack2's is
    /// CLOCK_MONOTONIC_RAW, PipeWire's CLOCK_MONOTONIC; the engine's follows the compositor's).
    public var jackMicroseconds: UInt64
    /// See ``jackMicroseconds``.
    public var engineTime: Double
    /// Counts feeds: 1 for the first one published.
    public var generation: UInt64

    /// Creates a feed.
    public init(course: PresentedValue, jackMicroseconds: UInt64, engineTime: Double, generation: UInt64) {
        self.course = course
        self.jackMicroseconds = jackMicroseconds
        self.engineTime = engineTime
        self.generation = generation
    }

    /// The engine time of a JACK clock reading.
    @inline(__always)
    public func engineTime(ofJackMicroseconds microseconds: UInt64) -> Double {
        engineTime + Double(Int64(bitPattern: microseconds &- jackMicroseconds)) / 1e6
    }
}

/// A wait-free single-producer single-consumer hand-over of the newest ``JackFeed``: a triple
/// buffer. The main thread writes into its own slot and swaps it with the middle one; the process
/// callback, when the middle one is fresh, swaps its slot with it. Neither side ever waits, locks
/// or allocates: a publish costs one atomic exchange, a take one load (and an exchange when there
/// is something new). Feeds published between two takes are skipped: only the newest counts.
///
/// The three slots are allocated once. Slot indices and the "fresh" flag share one atomic byte:
/// bits 0–1 the middle slot, bit 2 set when the middle slot holds a feed the reader has not taken.
public final class FeedExchange: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<JackFeed>
    private let state: Atomic<UInt8>
    /// The writer's slot (main thread only).
    private var back: UInt8 = 0
    /// The reader's slot (process callback only).
    private var front: UInt8 = 2
    private static let fresh: UInt8 = 4

    /// Three slots holding `initial`; the reader reads it until the first publish.
    public init(initial: JackFeed) {
        slots = .allocate(capacity: 3)
        slots.initialize(repeating: initial, count: 3)
        state = Atomic(1)
    }

    deinit {
        slots.deinitialize(count: 3)
        slots.deallocate()
    }

    /// Main thread: makes `feed` the newest.
    public func publish(_ feed: JackFeed) {
        slots[Int(back)] = feed
        let old = state.exchange(back | Self.fresh, ordering: .acquiringAndReleasing)
        back = old & 3
    }

    /// Process callback: the newest feed if one arrived since the last call, else nil. Wait-free.
    @inline(__always)
    public func take() -> JackFeed? {
        guard state.load(ordering: .relaxed) & Self.fresh != 0 else { return nil }
        let old = state.exchange(front, ordering: .acquiringAndReleasing)
        front = old & 3
        return slots[Int(front)]
    }
}
