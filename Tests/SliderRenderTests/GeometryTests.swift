import SliderRender
import Testing
import SliderEngine

@Suite("Geometry and damage")
struct GeometryTests {
    @Test("PixelRect union is the bounding box and ignores empty rectangles")
    func pixelRectUnion() {
        let a = PixelRect(x: 0, y: 0, width: 4, height: 4), b = PixelRect(x: 10, y: 2, width: 2, height: 5)
        #expect(a.union(b) == PixelRect(x: 0, y: 0, width: 12, height: 7))
        #expect(a.union(PixelRect(x: 50, y: 50, width: 0, height: 3)) == a)
        #expect(PixelRect(x: 9, y: 9, width: 0, height: 0).union(b) == b)
    }

    @Test("PixelRect intersection, touching edges do not overlap")
    func pixelRectIntersection() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersection(PixelRect(x: 5, y: -3, width: 10, height: 5)) == PixelRect(x: 5, y: 0, width: 5, height: 2))
        #expect(a.intersection(PixelRect(x: 10, y: 0, width: 3, height: 3)) == nil)
        #expect(a.contains(x: 9, y: 9) && !a.contains(x: 10, y: 9))
    }

    @Test("SliderRect union and intersection")
    func rectOps() {
        let a = SliderRect(x: 0, y: 0, width: 2.5, height: 1), b = SliderRect(x: 2, y: 0.5, width: 1, height: 1)
        #expect(a.union(b) == SliderRect(x: 0, y: 0, width: 3, height: 1.5))
        #expect(a.intersection(b) == SliderRect(x: 2, y: 0.5, width: 0.5, height: 0.5))
        #expect(a.intersection(SliderRect(x: 2.5, y: 0, width: 1, height: 1)).isEmpty)
    }

    @Test("deviceDamage without shadow: scaled, rounded outward plus one pixel of snapping margin")
    func deviceDamageRounding() {
        let renderer = SliderRenderer(style: SliderStyle(shadow: false))
        // 10.2 * 1.5 = 15.3 → 15 - 1;  13.2 * 1.5 = 19.8 → 20 + 1;  5.1 * 1.5 = 7.65 → 7 - 1;  8.1 * 1.5 = 12.15 → 13 + 1.
        let rects = renderer.deviceDamage(forLogical: [SliderRect(x: 10.2, y: 5.1, width: 3, height: 3)],
                                          scale: 1.5, bufferWidth: 480, bufferHeight: 72)
        #expect(rects == PixelRect(x: 14, y: 6, width: 7, height: 8))
        // Whole logical pixels at scale 1 still get the margin.
        #expect(renderer.deviceDamage(forLogical: [SliderRect(x: 4, y: 4, width: 2, height: 2)], scale: 1, bufferWidth: 100, bufferHeight: 100)
            == PixelRect(x: 3, y: 3, width: 4, height: 4))
    }

    @Test("deviceDamage grows by the shadow's reach when the thumb has a shadow")
    func deviceDamageShadow() {
        let plain = SliderRenderer(style: SliderStyle(shadow: false)).deviceDamage(
            forLogical: [SliderRect(x: 100, y: 20, width: 10, height: 10)], scale: 2, bufferWidth: 1000, bufferHeight: 1000)
        let shadowed = SliderRenderer().deviceDamage(
            forLogical: [SliderRect(x: 100, y: 20, width: 10, height: 10)], scale: 2, bufferWidth: 1000, bufferHeight: 1000)
        #expect(plain == PixelRect(x: 199, y: 39, width: 22, height: 22))
        // 7.5 logical px of shadow (offset 1.5 + 3σ of 2) on every side, × 2.
        #expect(shadowed == PixelRect(x: 184, y: 24, width: 52, height: 52))
    }

    @Test("deviceDamage clips to the buffer and drops empty, off-buffer and non-finite rectangles; the rest is one union")
    func deviceDamageClips() {
        let renderer = SliderRenderer(style: SliderStyle(shadow: false))
        let rects = renderer.deviceDamage(
            forLogical: [
                SliderRect(x: -5, y: -5, width: 10, height: 10),
                SliderRect(x: 500, y: 0, width: 10, height: 10),
                SliderRect(x: 5, y: 5, width: 0, height: 10),
                SliderRect(x: .nan, y: 0, width: 1, height: 1),
                SliderRect(x: 0, y: 0, width: .infinity, height: 1),
            ],
            scale: 1, bufferWidth: 320, bufferHeight: 48)
        #expect(rects == PixelRect(x: 0, y: 0, width: 6, height: 6))
        let two = renderer.deviceDamage(forLogical: [SliderRect(x: 10, y: 10, width: 2, height: 2), SliderRect(x: 30, y: 20, width: 2, height: 2)],
                                        scale: 1, bufferWidth: 320, bufferHeight: 48)
        #expect(two == PixelRect(x: 9, y: 9, width: 24, height: 14))
    }
}
