import PNGImage
import SliderRender
import Testing
import SliderEngine

/// One golden case: a slider state drawn at a scale.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let axis: Orientation
    let shape: TrackShape
    let value: Double
    let grown: Bool
    let scale: Double

    var name: String {
        let scaleText = scale == scale.rounded() ? "\(Int(scale))" : "\(scale)"
        return "\(shape)-\(axis == .horizontal ? "h" : "v")-v\(Int(value * 100))-\(grown ? "grown" : "rest")@\(scaleText)x"
    }

    var testDescription: String { name }

    /// States: at the minimum, a quarter (resting and grown), at the maximum (grown).
    static let states: [(Double, Bool)] = [(0, false), (0.25, false), (0.25, true), (1, true)]

    static let all: [GoldenCase] = {
        var cases: [GoldenCase] = []
        for shape in [TrackShape.capsule, .wedge] {
            for scale in [1.0, 1.25, 1.5, 2.0, 3.0] {
                for (value, grown) in states {
                    cases.append(GoldenCase(axis: .horizontal, shape: shape, value: value, grown: grown, scale: scale))
                }
            }
            for scale in [1.0, 2.0] {
                for (value, grown) in [(0.25, false), (1.0, true)] {
                    cases.append(GoldenCase(axis: .vertical, shape: shape, value: value, grown: grown, scale: scale))
                }
            }
        }
        return cases
    }()
}

@Suite("Golden images")
struct GoldenTests {
    @Test("default style matches its reference", arguments: GoldenCase.all)
    func matchesReference(_ golden: GoldenCase) {
        let renderer = SliderRenderer(style: SliderStyle(trackShape: golden.shape))
        let scene = TestScene.make(axis: golden.axis, shape: golden.shape, value: golden.value, grow: golden.grown ? 2 : 1)
        let buffer = TestBuffer(logical: TestScene.logicalSize(golden.axis), scale: golden.scale)
        buffer.render(renderer, scene, scale: golden.scale)
        Golden.check(buffer.packed, width: buffer.width, height: buffer.height, name: golden.name)
    }

    @Test("a transparent edge-mode overlay with custom colours matches its reference")
    func transparentOverlay() {
        let style = SliderStyle(trackShape: .wedge, trackColor: Color(hex: "#ffffff40")!, fillColor: Color(hex: "#FF9F0A")!,
                                thumbColor: Color(hex: "#F2F2F7")!, backgroundColor: Color(hex: "#00000000")!)
        let scene = TestScene.make(axis: .vertical, shape: .wedge, value: 0.6, grow: 1.5)
        let buffer = TestBuffer(logical: TestScene.logicalSize(.vertical), scale: 1.5)
        buffer.render(SliderRenderer(style: style), scene, scale: 1.5)
        Golden.check(buffer.packed, width: buffer.width, height: buffer.height, name: "overlay-wedge-v-v60@1.5x")
    }
}

@Suite("Golden comparison")
struct GoldenComparisonTests {
    @Test("a difference of 2 per channel passes, 3 fails with the worst pixel named")
    func tolerance() {
        let reference = PNGImage(width: 2, height: 1, pixels: [0xFF10_2030, 0xFF80_8080])
        #expect(Golden.compare(actual: [0xFF12_1E30, 0xFF80_8082], width: 2, height: 1, reference: reference) == nil)
        let problem = Golden.compare(actual: [0xFF10_2030, 0xFF83_8080], width: 2, height: 1, reference: reference)
        #expect(problem == "1 of 2 pixels differ by more than 2; worst 3 at (1, 0): expected 0xff808080 got 0xff838080 (premultiplied ARGB)")
        #expect(Golden.compare(actual: [0, 0], width: 1, height: 2, reference: reference) == "size 1x2 but the reference is 2x1")
    }
}

@Suite("Style changes")
struct StyleChangeTests {
    @Test("changing the thumb colour or shadow after rendering takes effect on the next frame")
    func restyle() {
        let renderer = SliderRenderer(style: SliderStyle(thumbColor: Color(hex: "#ff0000")!))
        let buffer = TestBuffer(width: 320, height: 48)
        let scene = TestScene.make(axis: .horizontal, shape: .capsule, value: 0.5)
        let centre = (Int(scene.thumbCenter.x), Int(scene.thumbCenter.y))
        buffer.render(renderer, scene, scale: 1)
        #expect(buffer[centre.0, centre.1] == 0xFFFF_0000)
        let below = buffer[centre.0, centre.1 + 11]
        renderer.style.thumbColor = Color(hex: "#00ff00")!
        renderer.style.shadow = false
        buffer.render(renderer, scene, scale: 1)
        #expect(buffer[centre.0, centre.1] == 0xFF00_FF00)
        // Without the shadow the pixel just below the thumb is plain background again.
        #expect(buffer[centre.0, centre.1 + 11] != below)
        #expect(buffer[centre.0, centre.1 + 11] == SliderStyle().backgroundColor.premultipliedARGB)
        renderer.style.trackShape = .wedge
        let wedge = TestBuffer(width: 320, height: 48)
        wedge.render(renderer, scene, scale: 1)
        #expect(wedge.packed != buffer.packed)
    }
}
