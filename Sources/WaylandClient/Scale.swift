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

    /// The largest scale drawn at: 16×. Real outputs go up to 3× or 4× (phones, 8K monitors up
    /// close); 16× leaves room for magnifiers and zoomed outputs while the default 320×48 slider
    /// still needs only a 5120×768 buffer (15 MiB). A compositor may send any int32 or uint32,
    /// and a scale in the millions would overflow every size computed from it.
    public static let maximumFactor: Int32 = 16
    /// The smallest fractional scale drawn at: ¼ (30/120). Compositors offer down to ½; below ¼ the
    /// default slider would shrink to a few pixels and its buffer to nothing.
    public static let minimumValue120: UInt32 = 30
    static let maximumValue120 = UInt32(maximumFactor) * 120

    /// An integer buffer scale, within 1…`maximumFactor` (values below 1 count as 1, values above
    /// as the maximum: see `integerOutputScale(_:)` for the warning).
    public init(integer: Int32) {
        value120 = UInt32(SurfaceScale.integerOutputScale(integer).scale) * 120
        isFractional = false
    }

    /// A fractional scale in 120ths, as `preferred_scale` sends it: 0 counts as 120, values
    /// outside `minimumValue120`…16 × 120 are clamped (see `fractionalValue120(_:)`).
    public init(fractional value120: UInt32) {
        self.value120 = SurfaceScale.fractionalValue120(value120).value120
        isFractional = true
    }

    /// A `wl_output.scale` made usable: below 1 (nonsense, but harmless) counts as 1 without
    /// complaint; above `maximumFactor` it is clamped and `clamped` is true, so the caller warns.
    static func integerOutputScale(_ raw: Int32) -> (scale: Int32, clamped: Bool) {
        raw > maximumFactor ? (maximumFactor, true) : (max(raw, 1), false)
    }

    /// A `wp_fractional_scale_v1.preferred_scale` made usable: 0 (unspecified by the protocol)
    /// counts as 1; outside ¼…16 it is clamped and `clamped` is true, so the caller warns.
    static func fractionalValue120(_ raw: UInt32) -> (value120: UInt32, clamped: Bool) {
        if raw == 0 { return (120, false) }
        let value = min(max(raw, minimumValue120), maximumValue120)
        return (value, value != raw)
    }

    /// The scale as a number, e.g. 1.25.
    public var factor: Double { Double(value120) / 120 }

    /// The integer scale for `wl_surface.set_buffer_scale` (integer mode) or the cursor size: rounded up.
    public var integerCeiling: Int32 { Int32(clamping: (UInt64(value120) + 119) / 120) }

    /// "1.25" (rounded to hundredths, trailing zeros dropped)
    public var description: String {
        let hundredths = (UInt64(value120) * 100 + 60) / 120
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return fraction < 10 ? "\(whole).0\(fraction)" : "\(whole).\(fraction)"
    }

    /// The buffer size for a surface of `logical` size: each side × scale, rounded half away from
    /// zero as wp_fractional_scale_v1 specifies for toplevels ("For toplevel surfaces, the size is
    /// rounded halfway away from zero"), so buffer pixels map 1:1 onto the compositor's device pixels.
    /// Exact for integer scales. A side of at least 1 stays at least 1 at a scale below 1.
    public func bufferSize(for logical: LogicalSize) -> PixelSize {
        PixelSize(width: bufferLength(logical.width), height: bufferLength(logical.height))
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

    /// One side of `bufferSize(for:)`: scaled, and never 0 for a positive length.
    private func bufferLength(_ length: Int32) -> Int32 {
        length > 0 ? max(scaledLength(length), 1) : scaledLength(length)
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
    SurfaceScale.integerOutputScale(entered.max() ?? allOutputs.max() ?? 1).scale
}

/// The most a surface's buffer may take, whatever size and scale the compositor asks for. A
/// compositor may configure any int32 (xdg_toplevel) or uint32 (layer-shell) size; drawn as asked,
/// 100000×100000 would take 37 GiB.
/// - 16384 pixels a side: the largest texture most GPUs take (`GL_MAX_TEXTURE_SIZE`), so a GL
///   compositor could not show a wider shm buffer anyway.
/// - 128 MiB a buffer: an 8K output (7680×4320, 126.6 MiB) still fits, and `BufferSet.maximumCount`
///   (8) buffers of it fit in one wl_shm_pool, whose size is an int32 (under 2 GiB): a compositor
///   holding every buffer cannot make the pool overflow, and leaves wlslider at most 1 GiB of
///   shared memory.
public enum BufferLimits {
    /// Buffer pixels per side.
    public static let maximumSide: Int32 = 16384
    /// Bytes per ARGB8888 buffer.
    public static let maximumBytes = 128 << 20
    /// Pixels per buffer (4 bytes each).
    static let maximumPixels = Int64(maximumBytes / 4)
}

extension SurfaceScale {
    /// The largest size within `logical` (each side at least 1) whose buffer at this scale fits
    /// `BufferLimits`: each side cut to what `maximumSide` buffer pixels show, then both sides
    /// shrunk in proportion until the buffer fits `maximumBytes`. Sizes that fit come back unchanged.
    public func fittingLogicalSize(_ logical: LogicalSize) -> LogicalSize {
        let longest = largestLength(fitting: BufferLimits.maximumSide)
        var width = min(max(logical.width, 1), longest)
        var height = min(max(logical.height, 1), longest)
        let pixels = bufferPixels(width, height)
        guard pixels > BufferLimits.maximumPixels else { return LogicalSize(width: width, height: height) }
        let shrink = (Double(BufferLimits.maximumPixels) / Double(pixels)).squareRoot()
        width = max(Int32(Double(width) * shrink), 1)
        height = max(Int32(Double(height) * shrink), 1)
        // Rounding to whole buffer pixels can leave it a row or a column over.
        while bufferPixels(width, height) > BufferLimits.maximumPixels {
            if width >= height { width -= 1 } else { height -= 1 }
        }
        return LogicalSize(width: width, height: height)
    }

    /// The largest logical length (at least 1) whose buffer length is at most `pixels`.
    private func largestLength(fitting pixels: Int32) -> Int32 {
        var length = Int32(clamping: Int64(pixels) * 120 / Int64(value120))
        while length > 1 && bufferLength(length) > pixels { length -= 1 }
        while length < Int32.max && bufferLength(length + 1) <= pixels { length += 1 }
        return max(length, 1)
    }

    private func bufferPixels(_ width: Int32, _ height: Int32) -> Int64 {
        let size = bufferSize(for: LogicalSize(width: width, height: height))
        return Int64(size.width) * Int64(size.height)
    }
}
