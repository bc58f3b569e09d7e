/// A scalar that moves from one value to another over a duration along a timing curve, and that
/// can be redirected at any time from wherever it is. Drives the thumb's scale and the edge shift.
struct Tween: Sendable, Equatable {
    private(set) var from: Double
    private(set) var to: Double
    private var start: Double = 0
    private var duration: Double = 0
    private let curve: TimingCurve

    init(_ value: Double, curve: TimingCurve) {
        from = value; to = value; self.curve = curve
    }

    func value(at t: Double) -> Double {
        if t >= start + duration || from == to { return to }
        if t <= start { return from }
        return from + (to - from) * curve((t - start) / duration)
    }

    func isMoving(at t: Double) -> Bool { from != to && t < start + duration }

    /// Heads for `target` from the current value at `t`, beginning after `delay`.
    mutating func retarget(to target: Double, at t: Double, duration d: Double, delay: Double = 0) {
        guard target != to else { return }
        from = value(at: t)
        to = target
        start = t + delay
        duration = d
    }
}
