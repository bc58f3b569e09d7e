// End-to-end edge mode: a layer surface at the left screen edge, half hidden, whose input region
// follows the visible part as it slides in on touch and out after the lift; and the one-line
// notice and ordinary window when the compositor has no layer-shell.
import Testing
import TestCompositor

@Suite("wlslider scenarios: edge mode")
struct WlsliderEdgeTests {
    /// The input region's width in the last commit (the region must be one plain rectangle).
    private func inputWidth(_ slider: SliderRun) throws -> Int32 {
        let region = try #require(try slider.compositor.surface(slider.surface).lastCommit?.inputRegion, "an input region is set")
        #expect(!region.hasSubtractions && region.addedRects.count == 1, "\(region)")
        let box = try #require(region.boundingBox)
        #expect(box.x == 0 && box.y == 0 && box.height == 320, "\(region)")
        return box.width
    }

    @Test("--edge left: an overlay layer surface anchored left, 48×320, half hidden with input only on the visible half; a touch reveals it, the lift hides it again")
    func revealAndHide() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--edge", "left"], role: .layer)
            let layer = try #require(try compositor.surface(slider.surface).layer)
            #expect(layer.anchor == [.left] && layer.size == Size(width: 48, height: 320), "\(layer)")
            #expect(layer.layer == .overlay && layer.exclusiveZone == 0 && layer.namespace == "wlslider", "\(layer)")
            #expect(slider.firstCommit.buffer?.width == 48 && slider.firstCommit.buffer?.height == 320)

            // Hidden: the band's left half is beyond the edge; the thumb (value 0, at the bottom) is cut in half.
            #expect(try inputWidth(slider) == 24)
            let hidden = try slider.thumb()
            #expect(hidden.minX == 0 && abs(hidden.width - 10) <= 1 && abs(hidden.centerY - 298) <= 1, "\(hidden)")

            // A touch on the visible half, level with the middle of the track: it slides in and heads for 50.
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 12, y: 160), .frame])
            var widths: [Int32] = [try inputWidth(slider)]
            for _ in 0..<20 {
                try await slider.advance(by: 16)
                widths.append(try inputWidth(slider))
            }
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 <= $1 } && widths.last == 48 && Set(widths).count > 3,
                    "the input region grows with the slide: \(widths)")
            #expect(try slider.lastValue() == 50)
            let shown = try slider.thumb()
            #expect(abs(shown.centerX - 24) <= 1 && abs(shown.centerY - 160) <= 1 && abs(shown.width - 40) <= 1, "fully shown, held: \(shown)")

            try await slider.touch([.up(id: 0), .frame])
            widths = []
            for _ in 0..<20 {
                try await slider.advance(by: 16)
                widths.append(try inputWidth(slider))
            }
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 >= $1 } && widths.last == 24, "and shrinks as it hides: \(widths)")
            try await slider.settle()
            let back = try slider.thumb()
            #expect(back.minX == 0 && abs(back.width - 10) <= 1 && abs(back.centerY - 160) <= 1, "half hidden again: \(back)")
            #expect(try slider.lastValue() == 50, "hiding keeps the value")
            try await slider.terminate()
        }
    }

    @Test("--edge-hide-delay 3: after the lift the slider stays shown for three seconds, sending nothing while it waits, then hides")
    func hideDelay() async throws {
        try await withTestCompositor { compositor in
            // Three seconds, not one: the quiet window below must end before the delay does, even
            // when a loaded machine makes the settling slow in real time (with one second, a CI run
            // with every suite in parallel once saw the slide back begin inside the window).
            let slider = try await SliderRun.launch(compositor, ["--edge", "left", "--edge-hide-delay", "3"], role: .layer)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 12, y: 160), .frame])
            try await slider.settle()
            #expect(try inputWidth(slider) == 48)
            try await slider.touch([.up(id: 0), .frame])
            try await slider.settle()  // the thumb shrinks back over 0.3 s; the slider stays shown
            #expect(try inputWidth(slider) == 48)

            // Nothing moves during the rest of the delay: no frame callbacks to ask for, and no
            // requests at all while wlslider waits on its own timer.
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(200)) == 0)
            let surface = slider.surface
            try await compositor.waitUntil("the slide back to begin", timeout: .seconds(10)) {
                ($0.surfaces[surface]?.frameCallbacksPending ?? 0) > 0
            }
            try await slider.catchUp()  // the timer's frames run on wlslider's own clock
            try await slider.settle()
            #expect(try inputWidth(slider) == 24, "hidden again")
            try await slider.terminate()
        }
    }

    @Test("--edge left without layer-shell: one line on stderr says so, and the slider opens as a 48×320 window with a window's opaque background")
    func withoutLayerShell() async throws {
        var configuration = Configuration()
        configuration.globals[.layerShell] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--edge", "left"], role: .toplevel)
            #expect(slider.firstCommit.buffer?.width == 48 && slider.firstCommit.buffer?.height == 320)
            // A window's opaque background (SliderStyle's default), not edge mode's transparent one.
            let corner = try slider.lastImage()[2, 2]
            #expect(corner == 0xFF1C_1C1E, "background pixel \(String(corner, radix: 16))")
            let process = slider.process
            try await compositor.waitUntil("the notice on stderr") { $0.processes[process]?.standardError.hasSuffix("\n") == true }
            let lines = slider.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains("zwlr_layer_shell_v1") == true && lines.first?.contains("window") == true,
                    "\(slider.standardError)")
            #expect(try slider.compositor.surface(slider.surface).lastCommit?.inputRegion == nil, "a window takes input everywhere")
            // It still works as a vertical slider: a tap halfway up jumps to 50.
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 24, y: 160), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 50)
            try await slider.terminate(allowingStandardError: true)
        }
    }
}
