// Samples and phases are the engine's own (`SliderEngine.ValueSample`, `GesturePhase`): every sink
// receives exactly what the engine emits.
@_exported import struct SliderEngine.ValueSample
@_exported import enum SliderEngine.GesturePhase

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
    /// Finite for any value in the range, even when `max − min` or `value − min` overflows (a range
    /// of ±1e308): the position is then worked out on the halves, which cannot overflow.
    public func position(of value: Double) -> Double {
        guard max != min else { return 0 }
        let offset = value - min, span = max - min
        if offset.isFinite && span.isFinite { return offset / span }
        return (value / 2 - min / 2) / (max / 2 - min / 2)
    }
}

/// What the audio-rate sink samples between emits: the value at any moment, and the range it lies
/// in. The app's engine is one; a test's glide is another.
public protocol ValueSource: AnyObject {
    /// The range the values lie in now (stdin's `min`/`max` may change it).
    var range: SliderRange { get }
    /// The value at `startTime + i / sampleRate` into each sample i. Allocates nothing.
    func fill(_ samples: inout MutableSpan<Float>, from startTime: Double, sampleRate: Double)
}
