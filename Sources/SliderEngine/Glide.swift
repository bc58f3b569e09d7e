#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The presented value's way to its target: the "presentation layer" of the slider value.
///
/// Every new target starts from the value presented at that moment, never from the old target, so
/// the stream glides without steps. `value(at:)` is a pure function of this state and the time,
/// cheap enough to call per audio sample.
struct Glide: Sendable, Equatable {
    private enum Motion: Sendable, Equatable {
        /// target + gap · (1 − y(p)) / (1 − y0), with p = (t − start) / duration and y the timing
        /// curve. A fresh glide has y0 = 0 and gap = from − target, which is the familiar
        /// from + (target − from) · y(p). A glide redirected mid-way keeps its start and duration and
        /// sets y0 to the progress reached, so it goes on at the same pace toward the new target.
        case curve(start: Double, duration: Double, curve: TimingCurve, gap: Double, y0: Double)
        /// target + (c1 + k·u) · e^(−u) with u = ω·(t − start), until `end`, then exactly target:
        /// the critically damped spring target + (c1 + c2·(t − start)) · e^(−ω·(t − start)) with
        /// k = c2/ω, kept in this form because ω·c1 overflows when the gap is near the largest
        /// Double (a range of ±1e308), and k, c1 and the value never do.
        case spring(start: Double, omega: Double, c1: Double, k: Double, end: Double)
    }

    /// Where the value is headed (and where it rests once the glide ends).
    private(set) var target: Double
    private var motion: Motion

    init(value: Double) {
        target = value
        motion = .curve(start: 0, duration: 0, curve: .linear, gap: 0, y0: 0)
    }

    /// The time at which the value reaches its target exactly.
    var endTime: Double {
        switch motion {
        case .curve(let start, let duration, _, _, _): start + duration
        case .spring(_, _, _, _, let end): end
        }
    }

    func isMoving(at t: Double) -> Bool { t < endTime }

    func value(at t: Double) -> Double {
        var hint = 0.5
        return value(at: t, hint: &hint)
    }

    /// `value(at:)` with the curve solver's parameter carried between calls (see `fill`).
    func value(at t: Double, hint: inout Double) -> Double {
        switch motion {
        case let .curve(start, duration, curve, gap, y0):
            if t >= start + duration { return target }
            let y = t <= start ? 0 : curve.value(at: (t - start) / duration, hint: &hint)
            return target + gap * ((1 - max(y, y0)) / (1 - y0))
        case let .spring(start, omega, c1, k, end):
            if t >= end { return target }
            let u = omega * max(0, t - start), decay = exp(-u)
            // u·e^(−u) ≤ 1/e and |k| ≤ |c1|: each term is at most the gap.
            return target + (c1 * decay + k * (u * decay))
        }
    }

    /// d value / dt at `t`.
    func velocity(at t: Double) -> Double {
        switch motion {
        case let .curve(start, duration, curve, gap, y0):
            guard t > start, t < start + duration else { return 0 }
            // The slope first: a zero slope times an overflowing gap / duration would be NaN.
            return -gap * min(curve.slope(at: (t - start) / duration), 1e6) / (1 - y0) / duration
        case let .spring(start, omega, c1, k, end):
            guard t < end else { return 0 }
            let u = omega * max(0, t - start), decay = exp(-u)
            // May overflow to ±infinity for gaps near the largest Double, never to NaN; ``spring``
            // copes with an infinite velocity toward the target.
            return omega * ((k - c1) * decay - k * (u * decay))
        }
    }

    /// Sets the value at once, without a glide.
    mutating func jump(to value: Double, at t: Double) {
        target = value
        motion = .curve(start: t, duration: 0, curve: .linear, gap: 0, y0: 0)
    }

    /// Heads for a new target from the value presented at `t`.
    ///
    /// - Parameters:
    ///   - duration: the curve glide's length; for the spring, the time by which it has covered
    ///     99 % of the way from rest.
    ///   - keepPace: when a curve glide with at least this much time left is under way, redirect it
    ///     instead of starting afresh: it keeps its end time and its progress along the curve (no
    ///     restart from zero speed at every movement of a finger or every wheel detent).
    ///   - tolerance: the spring ends (snaps exactly onto its target) once it is provably within
    ///     this distance.
    mutating func retarget(to newTarget: Double, at t: Double, duration: Double, mode: GlideMode,
                           curve: TimingCurve, keepPace: Double? = nil, tolerance: Double) {
        guard newTarget != target else { return }  // already headed there: keep its pace
        let current = value(at: t)
        guard duration >= Self.shortestDuration, current != newTarget else { return jump(to: newTarget, at: t) }
        switch (mode, motion) {
        case let (.curve, .curve(start, length, running, _, _)) where keepPace.map { start + length - t >= $0 } ?? false:
            let p = (t - start) / length
            let y0 = t <= start ? 0 : running(p)
            motion = .curve(start: start, duration: length, curve: running, gap: current - newTarget, y0: y0)
        case (.curve, _):
            motion = .curve(start: t, duration: duration, curve: curve, gap: current - newTarget, y0: 0)
        case (.spring, _):
            motion = Self.spring(from: current, velocity: velocity(at: t), to: newTarget, at: t,
                                 duration: duration, tolerance: tolerance)
        }
        target = newTarget
    }

    /// Glides shorter than this are jumps: a nanosecond is far below one audio sample, and a
    /// spring's ω = 6.64 / duration stays finite.
    static let shortestDuration = 1e-9

    /// A critically damped spring from (x0, v0) to `target`. Velocity pointing away from the target
    /// is dropped and velocity that would carry the value past it is capped, so the value always
    /// moves monotonically toward its target: no needless reversal, no overshoot.
    private static func spring(from x0: Double, velocity v0: Double, to target: Double, at t: Double,
                               duration: Double, tolerance: Double) -> Motion {
        // From rest, a critically damped spring has covered 99 % of the way at ωt ≈ 6.64.
        let omega = 6.64 / duration
        let c1 = x0 - target
        var v = v0
        if v * c1 > 0 { v = 0 }  // moving away from the target
        var k = v / omega + c1  // c2 / ω; ±infinity for an overflowing v toward the target
        if k * c1 < 0 { k = 0 }  // would cross the target at u = -c1/k
        let end = t + settleTime(c1: c1, k: k, tolerance: tolerance) / omega
        return .spring(start: t, omega: omega, c1: c1, k: k, end: end)
    }

    /// The first u = ω·t after which (|c1| + |k|·u)·e^(−u), which bounds the distance to the
    /// target, stays below the tolerance.
    private static func settleTime(c1: Double, k: Double, tolerance: Double) -> Double {
        let a = abs(c1), b = abs(k)
        func envelope(_ u: Double) -> Double { a * exp(-u) + b * (u * exp(-u)) }
        // The envelope rises until u = 1 − a/b, then falls for good.
        var lo = b > 0 ? max(0, 1 - a / b) : 0
        if envelope(lo) <= tolerance { return lo }
        var hi = max(lo, 1) * 2
        while envelope(hi) > tolerance { lo = hi; hi *= 2 }
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if envelope(mid) > tolerance { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// Samples the value at `startTime + i / sampleRate` into each slot of `buffer`: the audio-rate
    /// view of the same glide. Allocates nothing.
    func fill(_ samples: inout MutableSpan<Float>, from startTime: Double, sampleRate: Double) {
        samples.withUnsafeMutableBufferPointer { buffer in fill(buffer, from: startTime, sampleRate: sampleRate) }
    }

    private func fill(_ buffer: UnsafeMutableBufferPointer<Float>, from startTime: Double, sampleRate: Double) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let end = endTime
        var i = 0
        switch motion {
        case let .curve(start, duration, curve, gap, y0):
            // The hot loop of `--audio-out`: the curve is solved per sample, so it gets a solver
            // that carries its parameter from sample to sample (see TimingCurveSampler).
            // Each sample's time and progress come from reciprocals worked out once, not from a
            // division each: they differ from `value(at:)`'s by an ulp of a Double, far below a
            // Float sample's. A fresh glide (y0 = 0) needs no division by 1 − y0 either.
            var sampler = TimingCurveSampler(curve)
            let secondsPerSample = 1 / sampleRate, perSecond = 1 / duration
            let fresh = y0 == 0
            while i < buffer.count {
                let t = startTime + Double(i) * secondsPerSample
                if t >= end { break }
                let y = t <= start ? 0 : sampler.value(at: (t - start) * perSecond)
                let remaining = fresh ? 1 - max(y, 0) : (1 - max(y, y0)) / (1 - y0)
                base[i] = Float(saturating: target + gap * remaining)
                i += 1
            }
        case .spring:
            while i < buffer.count {
                let t = startTime + Double(i) / sampleRate
                if t >= end { break }
                base[i] = Float(saturating: value(at: t))
                i += 1
            }
        }
        // The rest of the block is the resting target.
        (base + i).initialize(repeating: Float(saturating: target), count: buffer.count - i)
    }
}

extension Float {
    /// `value` as a Float, ±`greatestFiniteMagnitude` beyond Float's range (which ends near
    /// 3.4e38) instead of ±infinity.
    @inline(__always)
    init(saturating value: Double) {
        self = Float(Swift.min(Swift.max(value, -Double(Float.greatestFiniteMagnitude)), Double(Float.greatestFiniteMagnitude)))
    }
}
