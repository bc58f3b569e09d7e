/// What the slider is doing when a value is emitted (the `phase` field of the JSON lines).
public enum Phase: String, Sendable, CaseIterable {
    /// No gesture: the initial value, or a value set from stdin/OSC/keys gliding on its own.
    case idle
    /// A finger, pen or pointer button went down on the slider.
    case began
    /// The gesture moved the value.
    case moved
    /// The gesture ended normally; the value it left is final.
    case ended
    /// The compositor cancelled the gesture (e.g. `wl_touch.cancel`).
    case cancelled
}

/// One presented value: what every sink receives, once per frame in which it changed.
public struct ValueSample: Equatable, Sendable {
    /// Seconds since the program started, on the monotonic clock the frame callbacks use.
    public var time: Double
    /// The slider's value in its own units (between the slider's min and max).
    public var value: Double
    /// The gesture phase this value belongs to.
    public var phase: Phase

    /// Creates a sample.
    public init(time: Double, value: Double, phase: Phase) {
        self.time = time
        self.value = value
        self.phase = phase
    }
}

/// The slider's current range. Passed with every sample because stdin's `min X`/`max X` change it live.
public struct SliderRange: Equatable, Sendable {
    /// The value at the slider's start (left or bottom).
    public var min: Double
    /// The value at the slider's end (right or top).
    public var max: Double

    /// Creates a range; `min == max` is allowed (every value then sits at position 0).
    public init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }

    /// Where `value` sits in the range, 0 at `min` and 1 at `max`; not clamped (a spring may overshoot).
    public func position(of value: Double) -> Double {
        max == min ? 0 : (value - min) / (max - min)
    }
}
