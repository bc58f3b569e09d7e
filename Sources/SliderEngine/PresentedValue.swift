/// The presented value's course from one moment on, as a plain value: the glide the engine runs
/// and the range the value is clamped to, nothing else.
///
/// A `Slider` holds arrays (scrubbing speeds, pending phases), so copying one into another thread
/// retains and may allocate. This holds only numbers: copying it allocates and retains nothing,
/// and ``value(at:)`` is the engine's own function (`Slider.value(at:)` gives the same Double for
/// the same time). A real-time audio thread evaluates it per sample from a copy the main thread
/// hands over (`Slider.presentation`), never touching the slider itself.
public struct PresentedValue: Sendable {
    let glide: Glide
    /// The range the value is clamped to (the slider's minimum and maximum when it was taken).
    public let minimum: Double
    /// See ``minimum``.
    public let maximum: Double
    /// The engine time from which this course holds: the slider's time when it was taken, which
    /// is the time of the change that made it when taken right after that change. Before it, the
    /// course taken before held.
    public let since: Double

    init(glide: Glide, range: ClosedRange<Double>, since: Double) {
        self.glide = glide
        minimum = range.lowerBound
        maximum = range.upperBound
        self.since = since
    }

    /// A value resting at `value` (in `range`) at every time: what a reader holds before the first
    /// course arrives.
    public static func resting(at value: Double, range: ClosedRange<Double>) -> PresentedValue {
        PresentedValue(glide: Glide(value: value), range: range, since: -.infinity)
    }

    /// Where the value is headed.
    public var target: Double { glide.target }

    /// The time from which the value stands on its target.
    public var endTime: Double { glide.endTime }

    /// The presented value at `t`, as `Slider.value(at:)` computes it.
    public func value(at t: Double) -> Double { glide.value(at: t).clamped(to: minimum...maximum) }

    /// The value at `t` with the curve solver's state carried from the previous call in `sampler`:
    /// the same value as ``value(at:)`` (to the solver's tolerance, far below 1e-9 of the span),
    /// several times faster for successive times, as an audio stream samples them. Allocates nothing.
    public func value(at t: Double, sampler: inout Sampler) -> Double {
        glide.value(at: t, hint: &sampler.hint).clamped(to: minimum...maximum)
    }

    /// Whether this and `other` describe the same course (the same glide and range), whenever taken.
    public func hasSameCourse(as other: PresentedValue) -> Bool {
        glide == other.glide && minimum == other.minimum && maximum == other.maximum
    }

    /// The curve solver's state between successive calls of ``value(at:sampler:)``.
    public struct Sampler: Sendable {
        var hint = 0.5
        /// A fresh state.
        public init() {}
    }
}
