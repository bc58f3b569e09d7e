// Shared helpers for the renderer tests: scenes laid out like the app will, buffers, and a
// seeded random generator.
import SliderRender
import SliderEngine

/// A reproducible pseudo-random source (SplitMix64), so a failing random case can be replayed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Test layouts: a 320x48 (or 48x320) surface with the track centred and the thumb travelling
/// between the centres of the track's end caps.
enum TestScene {
    static let restingRadius = 9.0
    static let length = 320.0
    static let breadth = 48.0
    static let inset = 24.0

    static func trackThickness(_ shape: TrackShape) -> Double { shape == .wedge ? 14 : 8 }

    static func logicalSize(_ axis: Orientation) -> (width: Double, height: Double) {
        axis == .horizontal ? (length, breadth) : (breadth, length)
    }

    /// The scene for `value` in 0...1 with the thumb at `grow` × its resting radius.
    static func make(axis: Orientation, shape: TrackShape, value: Double, grow: Double = 1) -> SliderScene {
        let thickness = trackThickness(shape)
        let crossOrigin = (breadth - thickness) / 2
        let travelStart = inset + thickness / 2, travel = length - 2 * inset - thickness
        let along = travelStart + value * travel
        switch axis {
        case .horizontal:
            return SliderScene(
                axis: axis, track: SliderRect(x: inset, y: crossOrigin, width: length - 2 * inset, height: thickness),
                fillEnd: along, thumbCenter: SliderPoint(x: along, y: breadth / 2), thumbRadius: restingRadius * grow)
        case .vertical:
            let y = length - along
            return SliderScene(
                axis: axis, track: SliderRect(x: crossOrigin, y: inset, width: thickness, height: length - 2 * inset),
                fillEnd: y, thumbCenter: SliderPoint(x: breadth / 2, y: y), thumbRadius: restingRadius * grow)
        }
    }
}

/// A heap buffer of premultiplied ARGB8888 pixels with an optional row padding.
final class TestBuffer {
    let width: Int
    let height: Int
    let stridePixels: Int
    var pixels: [UInt32]

    init(width: Int, height: Int, padding: Int = 0, fill: UInt32 = 0xDEAD_BEEF) {
        self.width = width
        self.height = height
        stridePixels = width + padding
        pixels = [UInt32](repeating: fill, count: stridePixels * height)
    }

    /// Buffer size for a logical size at `scale`: ceil(logical × scale), as the client does.
    convenience init(logical: (width: Double, height: Double), scale: Double, fill: UInt32 = 0xDEAD_BEEF) {
        self.init(width: Int((logical.width * scale).rounded(.up)), height: Int((logical.height * scale).rounded(.up)), fill: fill)
    }

    subscript(x: Int, y: Int) -> UInt32 { pixels[y * stridePixels + x] }

    /// Renders into this buffer, repainting the union of `damage` (all of it when nil); the
    /// rectangle repainted, as a list of none or one.
    @discardableResult
    func render(_ renderer: SliderRenderer, _ scene: SliderScene, scale: Double, damage: [PixelRect]? = nil) -> [PixelRect] {
        let layout = PixelLayout(width: width, height: height, stride: stridePixels * 4)
        let union = damage.map { $0.dropFirst().reduce($0.first ?? PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) } }
        return pixels.withUnsafeMutableBytes { bytes in
            var span = bytes.mutableBytes
            return renderer.render(scene, scale: scale, into: &span, layout: layout, damage: union).map { [$0] } ?? []
        }
    }

    /// The visible pixels, without padding, row-major.
    var packed: [UInt32] {
        (0..<height).flatMap { row in pixels[row * stridePixels ..< row * stridePixels + width] }
    }
}

/// Channel `shift` (0 = blue, 8 = green, 16 = red, 24 = alpha) of an ARGB word.
func channel(_ argb: UInt32, _ shift: UInt32) -> Int { Int(argb >> shift & 0xFF) }

/// The largest per-channel difference between two ARGB words.
func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
    [0, 8, 16, 24].map { abs(channel(a, $0) - channel(b, $0)) }.max()!
}
