import SliderEngine
import SliderRender
import Testing

/// A buffer inside a band of guard pixels on every side (and in the row padding), so a write
/// outside the buffer shows up as a changed guard pixel.
final class GuardedBuffer {
    static let sentinel: UInt32 = 0xA5A5_5A5A
    let width: Int
    let height: Int
    let guardBand: Int
    private var storage: [UInt32]

    init(width: Int, height: Int, guardBand: Int = 16) {
        self.width = width
        self.height = height
        self.guardBand = guardBand
        storage = [UInt32](repeating: Self.sentinel, count: (width + 2 * guardBand) * (height + 2 * guardBand))
    }

    private var stridePixels: Int { width + 2 * guardBand }

    /// Renders into the buffer proper: its first pixel is `guardBand` rows down and columns in.
    func render(_ renderer: SliderRenderer, _ scene: SliderScene, scale: Double, damage: [PixelRect]? = nil) -> [PixelRect] {
        let (offset, stride) = (guardBand * stridePixels + guardBand, stridePixels * 4)
        let layout = PixelLayout(width: width, height: height, stride: stride)
        let union = damage.map { $0.dropFirst().reduce($0.first ?? PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) } }
        return storage.withUnsafeMutableBufferPointer { pixels in
            // The buffer proper: from its first pixel to the end of its last row.
            let bytes = UnsafeMutableRawBufferPointer(start: pixels.baseAddress! + offset, count: layout.byteCount)
            var span = bytes.mutableBytes
            return renderer.render(scene, scale: scale, into: &span, layout: layout, damage: union).map { [$0] } ?? []
        }
    }

    /// How many guard pixels changed.
    var damagedGuardPixels: Int {
        var count = 0
        for row in 0..<(height + 2 * guardBand) {
            for column in 0..<stridePixels {
                let inside = row >= guardBand && row < guardBand + height && column >= guardBand && column < guardBand + width
                if !inside && storage[row * stridePixels + column] != Self.sentinel { count += 1 }
            }
        }
        return count
    }

    /// How many pixels of the buffer proper were painted.
    var paintedPixels: Int {
        var count = 0
        for row in 0..<height {
            for column in 0..<width where storage[(row + guardBand) * stridePixels + column + guardBand] != Self.sentinel {
                count += 1
            }
        }
        return count
    }
}

@Suite("Rendering degenerate and extreme layouts")
struct DegenerateRenderTests {
    static let scales: [Double] = [1, 1.25, 1.5, 1.75, 2, 3, 4, 5, 6, 7, 8, 9, 10]

    /// A logical side: empty, a pixel, a fraction, the sizes that trapped, ordinary, huge.
    static func side(_ random: inout SeededRandom) -> Double {
        switch Int.random(in: 0...6, using: &random) {
        case 0: 0
        case 1: 1
        case 2: Double.random(in: 0...3, using: &random)
        case 3: [30, 37, 38, 48, 100, 200, 320].randomElement(using: &random)!
        case 4: Double.random(in: 0...400, using: &random)
        case 5: [16384, 1e6, 1e300].randomElement(using: &random)!
        default: Double(Int.random(in: 1...64, using: &random))
        }
    }

    /// A configuration with random shapes, laid out by the engine on a random surface.
    static func engineScene(_ random: inout SeededRandom) -> (scene: SliderScene, size: SliderSize, shape: TrackShape) {
        var c = SliderConfiguration()
        c.orientation = Bool.random(using: &random) ? .horizontal : .vertical
        if Bool.random(using: &random) { c.edge = c.orientation == .horizontal ? .bottom : .left }
        c.thickness = [0.01, 1, 8, 48, 320, 16384, 1e9].randomElement(using: &random)!
        c.thumbScale = Double.random(in: 1...10, using: &random)
        if Bool.random(using: &random) { c.thumbDiameter = [0.01, 1, 20, 500, 1e12].randomElement(using: &random)! }
        if Bool.random(using: &random) { c.trackThickness = [0.01, 1, 6, 100, 1e12].randomElement(using: &random)! }
        let size = SliderSize(width: side(&random), height: side(&random))
        var slider = try! Slider(configuration: c, value: 0, size: size)
        let point = SliderPoint(x: Double.random(in: 0...1, using: &random) * slider.layout.size.width,
                                y: Double.random(in: 0...1, using: &random) * slider.layout.size.height)
        slider.handle(.press(.pointer, point), at: 0)  // grows the thumb (when it lands), glides the value
        let a = slider.appearance(at: Double.random(in: 0...1, using: &random))
        let scene = SliderScene(axis: c.orientation, track: a.track, fillEnd: a.fillEnd, thumbCenter: a.thumbCenter,
                                thumbRadius: a.thumbRadius)
        return (scene, slider.layout.size, Bool.random(using: &random) ? .capsule : .wedge)
    }

    /// A scene built by hand with degenerate or far-flung parts: zero-length and zero-thickness
    /// tracks, a thumb of radius 0 or far larger than the buffer, geometry at ±1e300.
    static func handmadeScene(_ random: inout SeededRandom) -> SliderScene {
        func number() -> Double {
            switch Int.random(in: 0...4, using: &random) {
            case 0: 0
            case 1: Double.random(in: -10...60, using: &random)
            case 2: Double.random(in: -1e5...1e5, using: &random)
            case 3: [1e300, -1e300, 1e9, -1e9].randomElement(using: &random)!
            default: Double.random(in: 0...2, using: &random)
            }
        }
        let track = SliderRect(x: number(), y: number(), width: abs(number()), height: abs(number()))
        return SliderScene(axis: Bool.random(using: &random) ? .horizontal : .vertical, track: track, fillEnd: number(),
                           thumbCenter: SliderPoint(x: number(), y: number()), thumbRadius: abs(number()))
    }

    /// Buffer pixels for a logical side at a scale: ceil(side × scale), at most `limit` so the test
    /// stays small (the renderer must clip what does not fit).
    static func bufferSide(_ logical: Double, scale: Double, limit: Int = 160) -> Int {
        Int(min((logical * scale).rounded(.up), Double(limit)))
    }

    @Test("random engine layouts at scales 1–10: nothing written outside the buffer, returned damage inside it")
    func engineLayouts() {
        var random = SeededRandom(seed: 0x5EED_D0D0)
        for trial in 0..<400 {
            let (scene, size, shape) = Self.engineScene(&random)
            let scale = Self.scales.randomElement(using: &random)!
            let renderer = SliderRenderer(style: SliderStyle(trackShape: shape, shadow: Bool.random(using: &random)))
            let buffer = GuardedBuffer(width: Self.bufferSide(size.width, scale: scale), height: Self.bufferSide(size.height, scale: scale))
            let touched = buffer.render(renderer, scene, scale: scale)
            let bounds = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
            #expect(touched.allSatisfy { $0.intersection(bounds) == $0 }, "trial \(trial): \(touched) outside \(bounds)")
            #expect(buffer.damagedGuardPixels == 0, "trial \(trial): wrote outside the buffer: \(scene) at \(scale)")
            #expect(buffer.paintedPixels == buffer.width * buffer.height, "trial \(trial): a full repaint left pixels out")
        }
    }

    @Test("hand-made degenerate scenes, partial damage, 0x0 and 1x1 buffers: no trap, no write outside")
    func handmadeScenes() {
        var random = SeededRandom(seed: 0x5EED_D0D1)
        for trial in 0..<600 {
            let scene = Self.handmadeScene(&random)
            let scale = Self.scales.randomElement(using: &random)!
            let (width, height) = [(0, 0), (1, 1), (0, 7), (7, 0), (1, 40), (40, 1),
                                   (Int.random(in: 1...120, using: &random), Int.random(in: 1...120, using: &random))]
                .randomElement(using: &random)!
            let renderer = SliderRenderer(style: SliderStyle(trackShape: Bool.random(using: &random) ? .capsule : .wedge))
            let buffer = GuardedBuffer(width: width, height: height)
            let damage: [PixelRect]? = Bool.random(using: &random) ? nil : (0..<3).map { _ in
                PixelRect(x: Int.random(in: -50...150, using: &random), y: Int.random(in: -50...150, using: &random),
                          width: Int.random(in: -5...200, using: &random), height: Int.random(in: -5...200, using: &random))
            }
            // Twice: the second frame reuses the cached track mask and thumb sprite.
            for _ in 0..<2 {
                let touched = buffer.render(renderer, scene, scale: scale, damage: damage)
                #expect(touched.allSatisfy { !$0.isEmpty && $0.x >= 0 && $0.y >= 0 && $0.maxX <= width && $0.maxY <= height },
                        "trial \(trial): \(touched)")
            }
            #expect(buffer.damagedGuardPixels == 0, "trial \(trial): wrote outside a \(width)x\(height) buffer: \(scene) at \(scale)")
        }
    }

    @Test("absurd scales (1e-300 to 1e300, a compositor's largest 2^32/120) draw without trapping")
    func absurdScales() {
        for scale in [1e-300, 1e-3, 35_791_394.1, 1e300] {
            for shape in [TrackShape.capsule, .wedge] {
                let renderer = SliderRenderer(style: SliderStyle(trackShape: shape))
                let buffer = GuardedBuffer(width: 32, height: 32)
                _ = buffer.render(renderer, TestScene.make(axis: .horizontal, shape: shape, value: 0.5, grow: 2), scale: scale)
                #expect(buffer.damagedGuardPixels == 0 && buffer.paintedPixels == 32 * 32, "scale \(scale)")
            }
        }
    }

    @Test("a thumb far larger than the buffer is drawn where it lands without a sprite of its own size")
    func hugeThumb() {
        let renderer = SliderRenderer(style: SliderStyle(thumbColor: Color(red: 0, green: 0, blue: 255)))
        let buffer = GuardedBuffer(width: 64, height: 32)
        // A thumb of radius 10^5 (10^6 buffer pixels at scale 10) centred on the buffer covers it all.
        let scene = SliderScene(axis: .horizontal, track: SliderRect(x: 0, y: 1, width: 6, height: 1), fillEnd: 3,
                                thumbCenter: SliderPoint(x: 3, y: 1.5), thumbRadius: 1e5)
        _ = buffer.render(renderer, scene, scale: 10)
        #expect(buffer.damagedGuardPixels == 0)
        #expect(buffer.paintedPixels == 64 * 32)
        let partial = buffer.render(renderer, scene, scale: 10, damage: [PixelRect(x: 10, y: 10, width: 5, height: 5)])
        #expect(partial == [PixelRect(x: 10, y: 10, width: 5, height: 5)])
        #expect(buffer.damagedGuardPixels == 0)
    }
}
