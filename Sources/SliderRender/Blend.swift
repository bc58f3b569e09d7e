// Porter-Duff over on premultiplied ARGB8888 pixels with pixman's own arithmetic, for the
// pixels a frame blends itself instead of calling pixman. Each product is rounded as pixman
// rounds it, (t + t / 256) / 256 with t = a × b + 128, and each sum saturates at 255, so these
// give the composites they replace bit for bit (SliderRenderTests compares them with pixman).

/// `source` over `destination` (pixman's OVER of a8r8g8b8 onto a8r8g8b8).
@inline(__always)
func over(_ source: UInt32, onto destination: UInt32) -> UInt32 {
    let inverse = 255 - (source >> 24)
    guard inverse != 0 else { return source }
    return addSaturating(source, multiply(destination, by: inverse))
}

/// Premultiplied `colour` seen through 8-bit `coverage`, over `destination` (pixman's OVER of a
/// solid colour through an a8 mask).
@inline(__always)
func over(_ colour: UInt32, coverage: UInt8, onto destination: UInt32) -> UInt32 {
    let m = UInt32(coverage)
    guard m != 0 else { return destination }
    return over(m == 255 ? colour : multiply(colour, by: m), onto: destination)
}

/// Each 8-bit channel of `pixel` times `factor` / 255, rounded as pixman rounds
/// (UN8x4_MUL_UN8: two channels at a time, 16 bits apart).
@inline(__always)
private func multiply(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
    func pair(_ p: UInt32) -> UInt32 {
        let t = p &* factor &+ 0x0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    }
    return pair(pixel & 0x00FF_00FF) | pair((pixel >> 8) & 0x00FF_00FF) << 8
}

/// The channel-wise sum of two pixels, each channel saturated at 255 (UN8x4_ADD_UN8x4).
@inline(__always)
private func addSaturating(_ a: UInt32, _ b: UInt32) -> UInt32 {
    func pair(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let t = x &+ y
        return (t | (0x0100_0100 &- ((t >> 8) & 0x0001_0001))) & 0x00FF_00FF
    }
    return pair(a & 0x00FF_00FF, b & 0x00FF_00FF) | pair((a >> 8) & 0x00FF_00FF, (b >> 8) & 0x00FF_00FF) << 8
}

/// `over(_:onto:)` on four pixels at once. No branch: a transparent source leaves the
/// destination as it is, and an opaque one replaces it, by the same arithmetic.
@inline(__always)
func over(_ source: SIMD4<UInt32>, onto destination: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let inverse = 255 &- (source &>> 24)
    let blue = addSaturating(source & 0x00FF_00FF, multiply(destination & 0x00FF_00FF, by: inverse))
    let green = addSaturating((source &>> 8) & 0x00FF_00FF, multiply((destination &>> 8) & 0x00FF_00FF, by: inverse))
    return blue | green &<< 8
}

/// `multiply` on channel pairs (0x00XX_00XX), lane by lane.
@inline(__always)
private func multiply(_ pairs: SIMD4<UInt32>, by factors: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let t = pairs &* factors &+ 0x0080_0080
    return ((t &+ ((t &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
}

/// `addSaturating` on channel pairs (0x00XX_00XX), lane by lane.
@inline(__always)
private func addSaturating(_ x: SIMD4<UInt32>, _ y: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let t = x &+ y
    return (t | (0x0100_0100 &- ((t &>> 8) & 0x0001_0001))) & 0x00FF_00FF
}
