import SliderRender
import Testing
import SliderEngine

@Suite("Rendering")
struct RenderTests {
    static let scales = [1, 1.25, 1.5, 2, 3]

    /// A random scene on a random layout, and a second one that differs only in what an
    /// animation frame changes (thumb position, radius, fill end).
    static func randomScenes(_ random: inout SeededRandom) -> (before: SliderScene, after: SliderScene, axis: Orientation, shape: TrackShape) {
        let axis: Orientation = Bool.random(using: &random) ? .horizontal : .vertical
        let shape: TrackShape = Bool.random(using: &random) ? .capsule : .wedge
        func scene() -> SliderScene {
            TestScene.make(axis: axis, shape: shape, value: Double.random(in: -0.05...1.05, using: &random),
                           grow: Double.random(in: 1...2, using: &random))
        }
        return (scene(), scene(), axis, shape)
    }

    @Test("a partial repaint equals a full repaint inside the damage's union and leaves the rest untouched")
    func partialEqualsFull() {
        var random = SeededRandom(seed: 0x5EED_0001)
        for trial in 0..<120 {
            let (scene, _, axis, shape) = Self.randomScenes(&random)
            let scale = Self.scales.randomElement(using: &random)!
            let renderer = SliderRenderer(style: SliderStyle(trackShape: shape))
            let full = TestBuffer(logical: TestScene.logicalSize(axis), scale: scale)
            full.render(renderer, scene, scale: scale)
            let partial = TestBuffer(logical: TestScene.logicalSize(axis), scale: scale, fill: 0x1234_5678)
            let damage = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                PixelRect(x: Int.random(in: -20...full.width, using: &random), y: Int.random(in: -20...full.height, using: &random),
                          width: Int.random(in: 0...120, using: &random), height: Int.random(in: 0...60, using: &random))
            }
            let touched = partial.render(renderer, scene, scale: scale, damage: damage)
            // One rectangle is repainted: the union of the damage, inside the buffer.
            let union = damage.dropFirst().reduce(damage[0]) { $0.union($1) }
                .intersection(PixelRect(x: 0, y: 0, width: full.width, height: full.height))
            #expect(touched == (union.map { [$0] } ?? []))
            var wrong = 0
            for y in 0..<full.height {
                for x in 0..<full.width {
                    let inDamage = union?.contains(x: x, y: y) ?? false
                    #expect(touched.contains { $0.contains(x: x, y: y) } == inDamage, "returned rectangles disagree with the damage at (\(x),\(y))")
                    let expected = inDamage ? full[x, y] : 0x1234_5678
                    if partial[x, y] != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "trial \(trial): \(wrong) pixels differ (\(axis), \(shape), scale \(scale), damage \(damage), scene \(scene))")
        }
    }

    @Test("the previous frame plus a repaint of deviceDamage(thumb ∪ fill change) equals a full repaint of the new frame")
    func damageCoversTheChange() {
        var random = SeededRandom(seed: 0x5EED_0002)
        for trial in 0..<120 {
            let (before, after, axis, shape) = Self.randomScenes(&random)
            let scale = Self.scales.randomElement(using: &random)!
            let shadow = Bool.random(using: &random)
            let renderer = SliderRenderer(style: SliderStyle(trackShape: shape, shadow: shadow))
            let expected = TestBuffer(logical: TestScene.logicalSize(axis), scale: scale)
            expected.render(renderer, after, scale: scale)
            let buffer = TestBuffer(logical: TestScene.logicalSize(axis), scale: scale)
            buffer.render(renderer, before, scale: scale)
            let fillSpan: SliderRect = axis == .horizontal
                ? SliderRect(x: min(before.fillEnd, after.fillEnd), y: after.track.y, width: abs(after.fillEnd - before.fillEnd), height: after.track.height)
                : SliderRect(x: after.track.x, y: min(before.fillEnd, after.fillEnd), width: after.track.width, height: abs(after.fillEnd - before.fillEnd))
            let damage = renderer.deviceDamage(forLogical: [before.thumbBounds, after.thumbBounds, fillSpan],
                                               scale: scale, bufferWidth: buffer.width, bufferHeight: buffer.height)
            buffer.render(renderer, after, scale: scale, damage: damage.map { [$0] } ?? [])
            let wrong = zip(buffer.packed, expected.packed).filter { $0 != $1 }.count
            #expect(wrong == 0, "trial \(trial): \(wrong) stale pixels (\(axis), \(shape), shadow \(shadow), scale \(scale), \(before) → \(after))")
        }
    }

    @Test("rows padded beyond the width are never written")
    func respectsStride() {
        let renderer = SliderRenderer()
        let buffer = TestBuffer(width: 100, height: 20, padding: 7, fill: 0xAAAA_AAAA)
        let scene = SliderScene(axis: .horizontal, track: SliderRect(x: 5, y: 8, width: 90, height: 4), fillEnd: 50,
                                thumbCenter: SliderPoint(x: 96, y: 10), thumbRadius: 9)
        let touched = buffer.render(renderer, scene, scale: 1)
        #expect(touched == [PixelRect(x: 0, y: 0, width: 100, height: 20)])
        for row in 0..<20 {
            for pad in 100..<107 { #expect(buffer.pixels[row * 107 + pad] == 0xAAAA_AAAA) }
        }
    }

    @Test("damage entirely outside the buffer paints nothing and reports nothing")
    func outsideDamage() {
        let buffer = TestBuffer(width: 50, height: 10, fill: 7)
        let scene = TestScene.make(axis: .horizontal, shape: .capsule, value: 0.5)
        let touched = buffer.render(SliderRenderer(), scene, scale: 1, damage: [PixelRect(x: 60, y: 0, width: 5, height: 5), PixelRect(x: 0, y: 0, width: 0, height: 0)])
        #expect(touched.isEmpty)
        #expect(buffer.pixels.allSatisfy { $0 == 7 })
    }

    @Test("a resting thumb dragged across the track rasterizes no new masks after its subpixel phases are cached")
    func restingThumbRasterizesOnce() {
        let renderer = SliderRenderer()
        let buffer = TestBuffer(width: 320, height: 48)
        var scene = TestScene.make(axis: .horizontal, shape: .capsule, value: 0.1)
        buffer.render(renderer, scene, scale: 1)
        // track + one thumb phase
        #expect(renderer.maskRasterizations == 2)
        for step in 1...40 {
            scene.thumbCenter.x += 0.25 * Double(step % 5)
            scene.fillEnd = scene.thumbCenter.x
            buffer.render(renderer, scene, scale: 1)
        }
        // Quarter-pixel phases: at most 4 thumb masks in all.
        #expect(renderer.maskRasterizations <= 5)
        let settled = renderer.maskRasterizations
        for _ in 0..<10 {
            scene.thumbCenter.x += 3
            buffer.render(renderer, scene, scale: 1)
        }
        #expect(renderer.maskRasterizations == settled)
        // A new scale rasterizes again.
        let big = TestBuffer(width: 640, height: 96)
        big.render(renderer, scene, scale: 2)
        #expect(renderer.maskRasterizations > settled)
    }
}

@Suite("Shapes and orientation")
struct ShapeTests {
    /// Rows (or columns) along `line` whose pixel is closer to the track colour than to the background.
    static func thickness(_ buffer: TestBuffer, across line: Int, horizontal: Bool, track: UInt32, background: UInt32) -> Int {
        let count = horizontal ? buffer.height : buffer.width
        return (0..<count).filter { i in
            let pixel = horizontal ? buffer[line, i] : buffer[i, line]
            return channelDistance(pixel, track) < channelDistance(pixel, background)
        }.count
    }

    static let plain = SliderStyle(trackShape: .wedge, trackColor: Color(red: 255, green: 255, blue: 255),
                                   fillColor: Color(red: 255, green: 0, blue: 0), backgroundColor: Color(red: 0, green: 0, blue: 0),
                                   shadow: false)

    @Test("horizontal wedge: thin rounded end at the left (minimum), full round end at the right")
    func wedgeHorizontal() {
        let renderer = SliderRenderer(style: Self.plain)
        let buffer = TestBuffer(width: 320, height: 48)
        // No thumb, no fill: just the track outline.
        let scene = SliderScene(axis: .horizontal, track: SliderRect(x: 10, y: 10, width: 300, height: 28), fillEnd: 10,
                                thumbCenter: SliderPoint(x: 0, y: 0), thumbRadius: 0)
        buffer.render(renderer, scene, scale: 1)
        let white: UInt32 = 0xFFFF_FFFF, black: UInt32 = 0xFF00_0000
        let nearMin = Self.thickness(buffer, across: 14, horizontal: true, track: white, background: black)
        let middle = Self.thickness(buffer, across: 160, horizontal: true, track: white, background: black)
        let nearMax = Self.thickness(buffer, across: 290, horizontal: true, track: white, background: black)
        // Thin end: radius 1 % of 300 = 3 → ~6 px thick; thick end 28 px.
        #expect((5...8).contains(nearMin), "thin end is \(nearMin) px thick")
        #expect(nearMax == 28, "thick end is \(nearMax) px thick")
        #expect(nearMin < middle && middle < nearMax)
        // Both ends are rounded: the outermost columns are only partly covered.
        #expect(Self.thickness(buffer, across: 10, horizontal: true, track: white, background: black) < nearMin)
        #expect(Self.thickness(buffer, across: 309, horizontal: true, track: white, background: black) < 10)
        // Nothing outside the track box.
        #expect(buffer[9, 24] == black && buffer[310, 24] == black)
    }

    @Test("vertical wedge: the thin end is at the bottom, where the minimum is")
    func wedgeVertical() {
        let renderer = SliderRenderer(style: Self.plain)
        let buffer = TestBuffer(width: 48, height: 320)
        let scene = SliderScene(axis: .vertical, track: SliderRect(x: 10, y: 10, width: 28, height: 300), fillEnd: 310,
                                thumbCenter: SliderPoint(x: 0, y: 0), thumbRadius: 0)
        buffer.render(renderer, scene, scale: 1)
        let white: UInt32 = 0xFFFF_FFFF, black: UInt32 = 0xFF00_0000
        let nearTop = Self.thickness(buffer, across: 30, horizontal: false, track: white, background: black)
        let nearBottom = Self.thickness(buffer, across: 295, horizontal: false, track: white, background: black)
        #expect(nearTop == 28, "top (maximum) end is \(nearTop) px thick")
        #expect(nearBottom < 10, "bottom (minimum) end is \(nearBottom) px thick")
    }

    @Test("vertical: the value fill grows from the bottom")
    func verticalFillFromBottom() {
        var style = Self.plain
        style.trackShape = .capsule
        let renderer = SliderRenderer(style: style)
        let buffer = TestBuffer(width: 48, height: 320)
        let scene = SliderScene(axis: .vertical, track: SliderRect(x: 20, y: 10, width: 8, height: 300), fillEnd: 235.5,
                                thumbCenter: SliderPoint(x: 0, y: 0), thumbRadius: 0)
        buffer.render(renderer, scene, scale: 1)
        let red: UInt32 = 0xFFFF_0000, white: UInt32 = 0xFFFF_FFFF
        #expect(buffer[24, 300] == red)
        #expect(buffer[24, 236] == red)
        #expect(buffer[24, 234] == white)
        #expect(buffer[24, 20] == white)
        // The boundary row is half fill, half track: antialiased, not a hard step.
        #expect(buffer[24, 235] == 0xFFFF_8080 || buffer[24, 235] == 0xFFFF_7F7F, "boundary \(String(buffer[24, 235], radix: 16))")
    }

    @Test("horizontal: the value fill runs from the left; the thumb is a disc centred where asked")
    func horizontalFillAndThumb() {
        var style = Self.plain
        style.trackShape = .capsule
        style.thumbColor = Color(red: 0, green: 0, blue: 255)
        let renderer = SliderRenderer(style: style)
        let buffer = TestBuffer(width: 200, height: 40)
        let scene = SliderScene(axis: .horizontal, track: SliderRect(x: 10, y: 16, width: 180, height: 8), fillEnd: 60,
                                thumbCenter: SliderPoint(x: 150.5, y: 20.5), thumbRadius: 10)
        buffer.render(renderer, scene, scale: 1)
        #expect(buffer[20, 20] == 0xFFFF_0000)
        #expect(buffer[59, 20] == 0xFFFF_0000)
        #expect(buffer[60, 20] == 0xFFFF_FFFF)
        // Disc of radius 10 around the centre of pixel (150, 20): opaque blue 9 px away,
        // background 11 px away.
        #expect(buffer[150, 20] == 0xFF00_00FF && buffer[141, 20] == 0xFF00_00FF && buffer[150, 11] == 0xFF00_00FF)
        #expect(buffer[150, 31] == 0xFF00_0000 && buffer[138, 12] == 0xFF00_0000)
        // The rim is antialiased: the centre of pixel (160, 20) lies exactly on the edge, so the
        // pixel is half thumb, half the white track beneath.
        #expect(buffer[160, 20] == 0xFF7F_7FFF || buffer[160, 20] == 0xFF80_80FF, "rim \(String(buffer[160, 20], radix: 16))")
    }

    @Test("a transparent background stays transparent outside the shapes (edge overlays)")
    func transparentBackground() {
        let renderer = SliderRenderer(style: SliderStyle(backgroundColor: Color(hex: "#00000000")!))
        let buffer = TestBuffer(width: 320, height: 48)
        let scene = TestScene.make(axis: .horizontal, shape: .capsule, value: 0.5)
        buffer.render(renderer, scene, scale: 1)
        #expect(buffer[2, 2] == 0)
        #expect(buffer[160, 24] >> 24 == 0xFF)
        // The shadow is translucent black, premultiplied: colour channels 0, alpha > 0.
        let belowThumb = buffer[160, 24 + 10 + 2]
        #expect(belowThumb >> 24 > 0 && belowThumb & 0xFF_FFFF == 0)
    }
}
