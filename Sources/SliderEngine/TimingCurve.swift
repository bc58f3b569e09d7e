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
