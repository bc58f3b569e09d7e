/// A timing function in the manner of Core Animation's `CAMediaTimingFunction`: a cubic Bézier
/// from (0, 0) to (1, 1) with two control points, mapping the elapsed fraction of an animation
/// (x) to the fraction of the change applied (y).
///
/// The seed behaviour uses `kCAMediaTimingFunctionEaseIn`, i.e. control points (0.42, 0) and
/// (1, 1): the glide starts slowly and arrives at full speed.
public struct TimingCurve: Sendable, Equatable, CustomStringConvertible {
    /// First control point.
    public let x1: Double, y1: Double
    /// Second control point.
    public let x2: Double, y2: Double

    /// Core Animation's ease-in: (0.42, 0) → (1, 1).
    public static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// Core Animation's ease-out: (0, 0) → (0.58, 1).
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// Core Animation's ease-in-ease-out: (0.42, 0) → (0.58, 1).
    public static let easeInOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// A straight line: the change is applied at a constant rate.
    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)

    /// Creates a curve. The x coordinates must lie in 0...1 so that the curve is a function of x.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "timing curve x must lie in 0...1")
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    public var description: String { "cubic-bezier(\(x1), \(y1), \(x2), \(y2))" }

    /// The eased fraction for an elapsed fraction `x` (clamped to 0...1).
    @inlinable
    public func callAsFunction(_ x: Double) -> Double {
        var hint = x
        return value(at: x, hint: &hint)
    }

    /// The eased fraction for `x`, starting the parameter search at `hint` and leaving the
    /// solved parameter there: consecutive samples of one glide (audio rate) converge in one or
    /// two Newton steps instead of five.
    @inlinable
    public func value(at x: Double, hint: inout Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return x }
        let s = parameter(forX: x, guess: hint)
        hint = s
        return Self.bezier(s, y1, y2)
    }

    /// The slope dy/dx at elapsed fraction `x`, used to hand velocity from one glide to the next.
    public func slope(at x: Double) -> Double {
        let xc = min(max(x, 0), 1)
        let s = parameter(forX: xc, guess: xc)
        let dx = Self.derivative(s, x1, x2)
        let dy = Self.derivative(s, y1, y2)
        if dx > 1e-9 { return dy / dx }
        // Vertical tangent in x (an end point with x control point at the end): use the limit.
        return dy > 1e-9 ? .greatestFiniteMagnitude : 0
    }

    /// One coordinate of the Bézier at parameter s, for control values a (P1) and b (P2).
    @inlinable
    static func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }

    @inlinable
    static func derivative(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * a + 6 * u * s * (b - a) + 3 * s * s * (1 - b)
    }

    /// Solves x(s) = x for s: Newton's method from the guess, falling back to bisection where the
    /// derivative vanishes (ease-in has dx/ds = 0 at s = 1) or Newton leaves 0...1.
    @inlinable
    func parameter(forX x: Double, guess: Double) -> Double {
        var s = min(max(guess, 0), 1)
        for _ in 0..<8 {
            let error = Self.bezier(s, x1, x2) - x
            if abs(error) < 1e-14 { return s }
            let d = Self.derivative(s, x1, x2)
            if d < 1e-6 { break }
            let next = s - error / d
            if next < 0 || next > 1 { break }
            s = next
        }
        var lo = 0.0, hi = 1.0
        // x(s) is monotonic for control x in 0...1, so bisection always converges.
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if Self.bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
            if hi - lo < 1e-15 { break }
        }
        let mid = (lo + hi) / 2
        return abs(Self.bezier(s, x1, x2) - x) < abs(Self.bezier(mid, x1, x2) - x) ? s : mid
    }
}

/// Samples one curve at a run of evenly spaced x: the audio-rate samples of one glide, where a
/// fresh solve per sample (``TimingCurve/value(at:hint:)``) would dominate the cost of `--audio-out`.
///
/// Same solver tolerance and the same values, about twice as fast, because:
/// - each sample's Bézier parameter is guessed by extrapolating earlier ones, so one Newton step
///   meets the tolerance (the previous parameter alone, a whole Δx away, needs two or three);
/// - the guess for sample i comes from samples i−2 and i−3, not i−1: a Newton step waits for a
///   division, and without a dependency on the sample just before, the CPU overlaps two of them;
/// - x(s) and y(s) are evaluated in power form, ((a·s + b)·s + c)·s.
/// A sample where Newton's method stalls (a flat x(s), e.g. at ease-in's end) goes to the curve's
/// own solver, with its bisection fallback.
struct TimingCurveSampler {
    let curve: TimingCurve
    /// x(s) = ((ax·s + bx)·s + cx)·s and y(s) = ((ay·s + by)·s + cy)·s.
    private let ax, bx, cx, ay, by, cy: Double
    private let isLinear: Bool
    /// The parameters of the last three samples, newest first; -1 = none yet.
    private var s1 = -1.0, s2 = -1.0, s3 = -1.0

    init(_ curve: TimingCurve) {
        self.curve = curve
        (ax, bx, cx) = Self.powerForm(curve.x1, curve.x2)
        (ay, by, cy) = Self.powerForm(curve.y1, curve.y2)
        isLinear = curve.x1 == curve.y1 && curve.x2 == curve.y2
    }

    /// The coefficients of 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³ in powers of s.
    private static func powerForm(_ p1: Double, _ p2: Double) -> (Double, Double, Double) {
        (1 - 3 * p2 + 3 * p1, 3 * p2 - 6 * p1, 3 * p1)
    }

    /// The eased fraction at `x`; call it with the x of consecutive samples, evenly spaced.
    @inline(__always)
    mutating func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if isLinear { return x }
        // The line through samples i−3 and i−2, at i; until there are three, the newest
        // parameter, or x itself as a fresh solve does.
        let guess = s3 >= 0 ? 3 * s2 - 2 * s3 : (s1 >= 0 ? s1 : x)
        let s = newton(x, from: min(max(guess, 0), 1)) ?? curve.parameter(forX: x, guess: guess)
        (s3, s2, s1) = (s2, s1, s)
        return ((ay * s + by) * s + cy) * s
    }

    /// Newton's method for x(s) = x, to the tolerance of ``TimingCurve/parameter(forX:guess:)``;
    /// nil when it stalls or leaves 0...1 (the caller then uses the curve's robust solver).
    @inline(__always)
    private func newton(_ x: Double, from guess: Double) -> Double? {
        var s = guess
        for _ in 0..<4 {
            let error = ((ax * s + bx) * s + cx) * s - x
            if abs(error) < 1e-14 { return s }
            let slope = (3 * ax * s + 2 * bx) * s + cx
            if slope < 1e-6 { return nil }
            s -= error / slope
            if s < 0 || s > 1 { return nil }
        }
        return nil
    }
}
