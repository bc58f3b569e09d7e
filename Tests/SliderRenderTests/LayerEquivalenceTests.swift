// The renderer copies pre-composited rows and blends a few pixels itself; these tests hold it to
// what compositing every layer with pixman, one after the other, gives: the same pixels, bit for
// bit, at every scale, shape, orientation and style, for full and partial repaints.
@testable import SliderRender
import SliderEngine
import Testing

@Suite("Layer equivalence")
struct LayerEquivalenceTests {
    /// The slider drawn layer by layer with pixman over the whole buffer: background, fill and
    /// track through the track's coverage, the mixed colour on the fill's boundary column (row),
    /// then the thumb sprite.
    static func layered(_ scene: SliderScene, style: SliderStyle, scale: Double, width: Int, height: Int) -> [UInt32] {
        let image = PixmanImage(argbWidth: width, height: height)
        let all = PixelRect(x: 0, y: 0, width: width, height: height)
        func composite(_ source: PixmanImage, sourceOrigin: (x: Int, y: Int) = (0, 0), mask: PixmanImage? = nil,
                       maskOrigin: (x: Int, y: Int) = (0, 0), area: PixelRect, op: BlendOp = .over) {
            guard let area = area.intersection(all) else { return }
            image.composite(op, source, sourceOrigin: sourceOrigin, mask: mask, maskOrigin: maskOrigin, area: area)
        }
        let paints = Paints(style)
        composite(paints.background, area: all, op: .source)
        let device = DeviceLayout(scene: scene, scale: scale, shape: style.trackShape)
        if let box = device.trackBox.intersection(all) {
            let mask = PlacedImage(maskOver: box) { device.trackCoverage(column: $0, row: $1) }.image
            let boundary = Int(device.fillEnd.rounded(.down))
            let share: Double, fill: PixelRect, edge: PixelRect, track: PixelRect
            if device.axis == .horizontal {
                share = device.fillEnd - Double(boundary)
                fill = PixelRect(x: box.x, y: box.y, width: boundary - box.x, height: box.height)
                edge = PixelRect(x: boundary, y: box.y, width: 1, height: box.height)
                track = PixelRect(x: boundary + 1, y: box.y, width: box.maxX - boundary - 1, height: box.height)
            } else {
                share = Double(boundary + 1) - device.fillEnd
                track = PixelRect(x: box.x, y: box.y, width: box.width, height: boundary - box.y)
                edge = PixelRect(x: box.x, y: boundary, width: box.width, height: 1)
                fill = PixelRect(x: box.x, y: boundary + 1, width: box.width, height: box.maxY - boundary - 1)
            }
            let origin = (box.x, box.y)
            composite(paints.fill, mask: mask, maskOrigin: origin, area: fill)
            composite(paints.track, mask: mask, maskOrigin: origin, area: track)
            composite(PixmanImage(solidPremultiplied: paints.mix(fillShare: share)), mask: mask, maskOrigin: origin, area: edge)
        }
        if device.thumb.radius > 0 {
            let key = ThumbKey(device.thumb)
            let sprite = ThumbSprite(key: key, scale: scale, color: style.thumbColor.premultipliedARGB, shadow: style.shadow,
                                     background: paints.background)
            let placed = sprite.placed.moved(by: Int(device.thumb.centreX.rounded(.down)), Int(device.thumb.centreY.rounded(.down)))
            composite(sprite.placed.image, sourceOrigin: (placed.x, placed.y), area: placed)
        }
        let rows = image.rows!
        return (0..<height).flatMap { y in (0..<width).map { rows.argb(y)[$0] } }
    }

    static func randomColor(_ random: inout SeededRandom) -> Color {
        Color(red: .random(in: 0...255, using: &random), green: .random(in: 0...255, using: &random),
              blue: .random(in: 0...255, using: &random),
              alpha: [0, 255, 255, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!)
    }

    @Test("random scenes, styles, damage and restyling: every repainted pixel is the layered composite's")
    func matchesLayeredComposite() {
        var random = SeededRandom(seed: 0x1A7E_0001)
        for trial in 0..<150 {
            let (scene, next, axis, shape) = RenderTests.randomScenes(&random)
            let scale = (RenderTests.scales + [Double.random(in: 0.5...4, using: &random)]).randomElement(using: &random)!
            var style = SliderStyle(trackShape: shape, shadow: Bool.random(using: &random))
            if Bool.random(using: &random) {
                style.trackColor = Self.randomColor(&random)
                style.fillColor = Self.randomColor(&random)
                style.thumbColor = Self.randomColor(&random)
                style.backgroundColor = Self.randomColor(&random)
            }
            let renderer = SliderRenderer(style: style)
            let buffer = TestBuffer(logical: TestScene.logicalSize(axis), scale: scale)
            buffer.render(renderer, scene, scale: scale)
            let first = Self.layered(scene, style: style, scale: scale, width: buffer.width, height: buffer.height)
            #expect(buffer.packed == first, "trial \(trial): full repaint (\(axis), \(shape), scale \(scale), \(style), \(scene))")
            // The next frame, repainting only a damaged rectangle over the first.
            let damage = PixelRect(x: Int.random(in: -10...buffer.width, using: &random), y: Int.random(in: -10...buffer.height, using: &random),
                                   width: Int.random(in: 0...160, using: &random), height: Int.random(in: 0...80, using: &random))
            buffer.render(renderer, next, scale: scale, damage: [damage])
            let second = Self.layered(next, style: style, scale: scale, width: buffer.width, height: buffer.height)
            let wrong = (0..<buffer.height).flatMap { y in (0..<buffer.width).map { (x: $0, y: y) } }.filter { p in
                let expected = damage.contains(x: p.x, y: p.y) ? second[p.y * buffer.width + p.x] : first[p.y * buffer.width + p.x]
                return buffer[p.x, p.y] != expected
            }
            #expect(wrong.isEmpty, "trial \(trial): \(wrong.count) pixels differ after a repaint of \(damage), first \(wrong.first.map { "\($0)" } ?? "")")
            // A new look drops what the old one cached.
            switch trial % 4 {
            case 0: style.backgroundColor = Self.randomColor(&random)
            case 1: style.trackColor = Self.randomColor(&random)
            case 2: style.fillColor = Self.randomColor(&random)
            default: style.thumbColor = Self.randomColor(&random)
            }
            renderer.style = style
            buffer.render(renderer, next, scale: scale)
            #expect(buffer.packed == Self.layered(next, style: style, scale: scale, width: buffer.width, height: buffer.height),
                    "trial \(trial): after restyling to \(style)")
        }
    }
}
