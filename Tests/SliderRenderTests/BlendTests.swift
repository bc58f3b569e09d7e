// The renderer blends a few pixels per frame itself instead of calling pixman; these must equal
// pixman's composites bit for bit, or a frame would differ from a full repaint.
@testable import SliderRender
import Testing

@Suite("Blending")
struct BlendTests {
    /// A `width` × `height` ARGB image holding `pixels`, row-major.
    static func image(_ pixels: [UInt32], width: Int, height: Int) -> PixmanImage {
        PixmanImage(argbWidth: width, height: height) { pixels[$1 * width + $0] }
    }

    static func read(_ image: PixmanImage, width: Int, height: Int) -> [UInt32] {
        let rows = image.rows!
        return (0..<height).flatMap { y in (0..<width).map { rows.argb(y)[$0] } }
    }

    /// A random premultiplied pixel, or now and then one with a channel above its alpha.
    static func pixel(_ random: inout SeededRandom) -> UInt32 {
        let alpha = [0, 255, UInt32.random(in: 0...255, using: &random)].randomElement(using: &random)!
        let limit = Int.random(in: 0..<8, using: &random) == 0 ? 255 : alpha
        let channels = (0..<3).map { _ in UInt32.random(in: 0...limit, using: &random) }
        return alpha << 24 | channels[0] << 16 | channels[1] << 8 | channels[2]
    }

    @Test("over(_:onto:), one and four pixels at a time, equals pixman's OVER for every alpha over every destination byte, and random pairs")
    func overMatchesPixman() {
        var random = SeededRandom(seed: 0x0B1E_0001)
        var sources: [UInt32] = [], destinations: [UInt32] = []
        for alpha in UInt32(0)...255 {
            for d in UInt32(0)...255 {
                let c = [0, alpha / 2, alpha, UInt32.random(in: 0...alpha, using: &random)]
                sources.append(alpha << 24 | c[1] << 16 | c[2] << 8 | c[Int(d & 3) == 0 ? 3 : 0])
                destinations.append((255 - d) << 24 | d << 16 | (d ^ 0x5A) << 8 | (d &* 13) & 0xFF)
            }
        }
        for _ in 0..<65536 {
            sources.append(Self.pixel(&random))
            destinations.append(Self.pixel(&random))
        }
        let width = 256, height = sources.count / width
        let destination = Self.image(destinations, width: width, height: height)
        destination.composite(.over, Self.image(sources, width: width, height: height),
                              area: PixelRect(x: 0, y: 0, width: width, height: height))
        let expected = Self.read(destination, width: width, height: height)
        let wrong = (0..<sources.count).filter { over(sources[$0], onto: destinations[$0]) != expected[$0] }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(3).map { (sources[$0], destinations[$0], expected[$0]) })")
        // Four at a time: the same pixels.
        let wrongFours = stride(from: 0, to: sources.count, by: 4).filter { i in
            let four = over(SIMD4(sources[i..<i + 4]), onto: SIMD4(destinations[i..<i + 4]))
            return (0..<4).contains { four[$0] != expected[i + $0] }
        }
        #expect(wrongFours.isEmpty, "\(wrongFours.count) groups of four differ, first at \(wrongFours.prefix(3))")
    }

    @Test("over(_:coverage:onto:) equals pixman's OVER of a solid colour through an a8 mask, for every coverage")
    func coverageMatchesPixman() {
        var random = SeededRandom(seed: 0x0B1E_0002)
        let coverage = PixmanImage(alphaWidth: 256, height: 1) { column, _ in UInt8(column) }
        for _ in 0..<2000 {
            let colour = Self.pixel(&random), background = Self.pixel(&random)
            let destination = Self.image([UInt32](repeating: background, count: 256), width: 256, height: 1)
            destination.composite(.over, PixmanImage(solidPremultiplied: colour), mask: coverage,
                                  area: PixelRect(x: 0, y: 0, width: 256, height: 1))
            let expected = Self.read(destination, width: 256, height: 1)
            let wrong = (0...255).filter { over(colour, coverage: UInt8($0), onto: background) != expected[$0] }
            #expect(wrong.isEmpty, "colour \(colour) over \(background): coverages \(wrong.prefix(5)) differ")
        }
    }
}
