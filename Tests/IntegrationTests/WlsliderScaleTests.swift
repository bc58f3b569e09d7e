// End-to-end HiDPI scenarios: a new integer output scale or fractional preferred scale makes
// wlslider redraw at once at the new buffer size, rendered at that resolution rather than scaled.
import Testing
import TestCompositor

@Suite("wlslider scenarios: scale changes")
struct WlsliderScaleTests {
    /// How many 2×2 pixel blocks (aligned to even coordinates) are not one flat colour. An image
    /// drawn at scale 1 and blown up 2× has none; one rendered at scale 2 has its antialiased
    /// edges at the finer grid, so many.
    private func detailedBlocks(_ image: Image) -> Int {
        var count = 0
        for y in stride(from: 0, to: image.height - 1, by: 2) {
            for x in stride(from: 0, to: image.width - 1, by: 2) {
                let p = image[x, y]
                if image[x + 1, y] != p || image[x, y + 1] != p || image[x + 1, y + 1] != p { count += 1 }
            }
        }
        return count
    }

    @Test("output scale 2 (no fractional scaling): a 640×96 buffer with buffer_scale 2, drawn at double resolution; back to 1 afterwards")
    func integerScale() async throws {
        var configuration = Configuration()
        configuration.globals[.fractionalScale] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            let first = try #require(slider.firstCommit.buffer)
            #expect(first.width == 320 && first.height == 48 && slider.firstCommit.bufferScale == 1)
            let rest = try slider.thumb()

            try compositor.setOutputScale(2)
            try await slider.sync()
            let commit = try #require(compositor.surface(slider.surface).lastBufferCommit)
            let buffer = try #require(commit.buffer)
            #expect(buffer.width == 640 && buffer.height == 96 && commit.bufferScale == 2, "\(buffer.width)×\(buffer.height) at scale \(commit.bufferScale)")
            #expect(commit.surfaceSize == Size(width: 320, height: 48))
            #expect(commit.bufferDamage == [Rect(x: 0, y: 0, width: 640, height: 96)], "all of it redrawn: \(commit.bufferDamage)")
            let image = try #require(buffer.image)
            let thumb = try #require(ThumbExtent(in: image))
            #expect(abs(thumb.width - 2 * rest.width) <= 1 && abs(thumb.height - 2 * rest.height) <= 1, "twice \(rest): \(thumb)")
            #expect(abs(thumb.centerX - 320) <= 1 && abs(thumb.centerY - 48) <= 1, "\(thumb)")
            #expect(detailedBlocks(image) >= 40, "rendered at scale 2, not blown up: \(detailedBlocks(image)) detailed 2×2 blocks")

            // Input stays in logical coordinates: a tap at logical x = 229 jumps to 75.
            try await slider.catchUp()  // the redraw for the new scale happened at wlslider's own time
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 229, y: 24), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 75)
            #expect(abs(try slider.thumb().centerX - 2 * 229) <= 1)

            try compositor.setOutputScale(1)
            try await slider.sync()
            let back = try #require(compositor.surface(slider.surface).lastBufferCommit)
            #expect(back.buffer?.width == 320 && back.buffer?.height == 48 && back.bufferScale == 1)
            try await slider.terminate()
        }
    }

    @Test("preferred fractional scale 1.5: a 480×72 buffer shown at 320×48 through the viewport, drawn at 1.5× resolution")
    func fractionalScale() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            let first = try #require(slider.firstCommit.buffer)
            #expect(first.width == 320 && first.height == 48 && slider.firstCommit.viewportDestination == Size(width: 320, height: 48))
            let rest = try slider.thumb()

            try compositor.sendPreferredScale(slider.surface, scale120: 180)
            try await slider.sync()
            let commit = try #require(compositor.surface(slider.surface).lastBufferCommit)
            let buffer = try #require(commit.buffer)
            #expect(buffer.width == 480 && buffer.height == 72, "\(buffer.width)×\(buffer.height)")
            #expect(commit.bufferScale == 1 && commit.viewportDestination == Size(width: 320, height: 48))
            let thumb = try #require(buffer.image.flatMap { ThumbExtent(in: $0) })
            #expect(abs(Double(thumb.width) - 1.5 * Double(rest.width)) <= 1.5 && abs(thumb.centerX - 240) <= 1 && abs(thumb.centerY - 36) <= 1,
                    "1.5 × \(rest): \(thumb)")

            try compositor.sendPreferredScale(slider.surface, scale120: 240)
            try await slider.sync()
            let double = try #require(compositor.surface(slider.surface).lastBufferCommit?.buffer)
            #expect(double.width == 640 && double.height == 96)
            let image = try #require(double.image)
            #expect(detailedBlocks(image) >= 40, "rendered at scale 2, not blown up")
            try await slider.terminate()
        }
    }

    @Test("a configure to another size lays the slider out anew: 400×60, the thumb travels 22…378 on the centre line, taps map onto it")
    func resize() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            let serial = try compositor.configure(slider.surface, size: Size(width: 400, height: 60))
            try await compositor.waitForAck(of: serial, on: slider.surface)
            try await slider.sync()
            let commit = try #require(compositor.surface(slider.surface).lastBufferCommit)
            #expect(commit.buffer?.width == 400 && commit.buffer?.height == 60 && commit.ackedSerial == serial)
            let thumb = try slider.thumb()
            #expect(abs(thumb.centerX - 200) <= 0.5 && abs(thumb.centerY - 30) <= 1 && abs(thumb.width - 20) <= 1, "value 50 in the middle: \(thumb)")
            #expect(try slider.takeLines().map(\.value) == [50], "a new size does not change the value")

            try await slider.touch([.down(id: 0, surface: slider.surface, x: 111, y: 30), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 25, "a quarter of the way along 22…378")
            #expect(abs(try slider.thumb().centerX - 111) <= 0.5)
            try await slider.terminate()
        }
    }
}
