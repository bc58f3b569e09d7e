// HiDPI maths, pure: the scale a surface renders at, and the buffer size and damage that follow from it.

/// The scale a surface renders at, in 120ths (the unit of `wp_fractional_scale_v1.preferred_scale`):
/// 120 = 1, 150 = 1.25, 180 = 1.5, 240 = 2.
///
/// With `wp_fractional_scale_v1` the surface uses buffer scale 1 and a `wp_viewport` whose destination
/// is the logical size; otherwise the scale is an integer set with `wl_surface.set_buffer_scale`.
public struct SurfaceScale: Hashable, Sendable, CustomStringConvertible {
    /// The scale × 120.
    public let value120: UInt32
    /// True when it came from `wp_fractional_scale_v1` (viewport mode), false for an integer buffer scale.
    public let isFractional: Bool

    /// Scale 1, integer mode.
    public static let one = SurfaceScale(integer: 1)

    /// An integer buffer scale (values below 1 count as 1).
    public init(integer: Int32) {
        value120 = UInt32(max(integer, 1)) * 120
        isFractional = false
    }

    /// A fractional scale in 120ths, as `preferred_scale` sends it (0 counts as 120).
    public init(fractional value120: UInt32) {
        self.value120 = value120 == 0 ? 120 : value120
        isFractional = true
    }

    /// The scale as a number, e.g. 1.25.
    public var factor: Double { Double(value120) / 120 }

    /// The integer scale for `wl_surface.set_buffer_scale` (integer mode) or the cursor size: rounded up.
    public var integerCeiling: Int32 { Int32((value120 + 119) / 120) }

    /// "1.25" (rounded to hundredths, trailing zeros dropped)
    public var description: String {
        let hundredths = (value120 * 100 + 60) / 120
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return fraction < 10 ? "\(whole).0\(fraction)" : "\(whole).\(fraction)"
    }

    /// The buffer size for a surface of `logical` size: each side × scale, rounded half away from
    /// zero as wp_fractional_scale_v1 specifies for toplevels ("For toplevel surfaces, the size is
    /// rounded halfway away from zero"), so buffer pixels map 1:1 onto the compositor's device pixels.
    /// Exact for integer scales.
    public func bufferSize(for logical: LogicalSize) -> PixelSize {
        PixelSize(width: scaledLength(logical.width), height: scaledLength(logical.height))
    }

    /// The buffer rectangle covering logical `rect`: edges scaled, rounded outwards (so damage never
    /// misses a partly covered pixel), then clipped to the buffer of `logical` size.
    public func bufferRect(for rect: LogicalRect, in logical: LogicalSize) -> BufferRect? {
        let scale = Int64(value120)
        let left = floorDivide(Int64(rect.x) * scale, 120)
        let top = floorDivide(Int64(rect.y) * scale, 120)
        let right = -floorDivide(-(Int64(rect.x) + Int64(rect.width)) * scale, 120)
        let bottom = -floorDivide(-(Int64(rect.y) + Int64(rect.height)) * scale, 120)
        let rect = BufferRect(x: Int32(clamping: left), y: Int32(clamping: top),
                              width: Int32(clamping: right - left), height: Int32(clamping: bottom - top))
        return rect.clamped(to: bufferSize(for: logical))
    }

    /// `length` × scale, rounded half away from zero (integer arithmetic: no float drift).
    func scaledLength(_ length: Int32) -> Int32 {
        let doubled = 2 * Int64(length) * Int64(value120)
        let rounded = doubled >= 0 ? (doubled + 120) / 240 : -((-doubled + 120) / 240)
        return Int32(clamping: rounded)
    }
}

/// `a / b` rounded towards minus infinity (Swift's `/` truncates towards zero), for b > 0.
func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
}

/// The integer scale of a surface without fractional scaling: the largest scale among the outputs it
/// has entered; before it entered any, the largest of all outputs (so the first frame is not blurry
/// on a HiDPI-only setup); 1 without outputs.
func integerScale(entered: [Int32], allOutputs: [Int32]) -> Int32 {
    max(entered.max() ?? allOutputs.max() ?? 1, 1)
}
