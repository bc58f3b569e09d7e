import PNGImage
import Testing
@testable import wlslider_probe

/// The renderer's golden images: the probe must read back the state each one was drawn for.
struct GoldenSlider: CustomTestStringConvertible, Sendable {
    let name: String

    var testDescription: String { name }

    /// Fields of a name like "capsule-h-v25-grown@1.5x".
    var vertical: Bool { name.contains("-v-") }
    var value: Double { Double(name.split(separator: "-")[2].dropFirst())! / 100 }
    var grown: Bool { name.contains("grown") }
    var scale: Double { Double(name.split(separator: "@")[1].dropLast())! }
    /// The test scenes' resting thumb radius is 9 logical pixels; grown is twice that.
    var diameter: Double { 2 * 9 * (grown ? 2 : 1) * scale }

    func image() throws -> PNGImage { try PNGImage(contentsOf: GoldenSlider.folder + "/" + name + ".png") }

    static let folder: String = {
        let file = "\(#filePath)"
        let tests = file[..<file.lastIndex(of: "/")!]
        return String(tests[..<tests.lastIndex(of: "/")!]) + "/SliderRenderTests/Golden"
    }()

    static let all: [GoldenSlider] = {
        var names: [String] = []
        for shape in ["capsule", "wedge"] {
            for scale in ["1", "1.25", "1.5", "2", "3"] {
                for state in ["v0-rest", "v25-rest", "v25-grown", "v100-grown"] { names.append("\(shape)-h-\(state)@\(scale)x") }
            }
            for scale in ["1", "2"] {
                for state in ["v25-rest", "v100-grown"] { names.append("\(shape)-v-\(state)@\(scale)x") }
            }
        }
        return names.map(GoldenSlider.init)
    }()
}

/// A canvas of one colour with images pasted in, standing in for a compositor's screenshot.
func screenshot(width: Int, height: Int, background: UInt32 = 0xFF3F_3F3F) -> PNGImage {
    PNGImage(width: width, height: height, pixels: [UInt32](repeating: background, count: width * height))
}

extension PNGImage {
    /// Composites `image` (straight alpha) over this one with its top-left corner at (x, y).
    mutating func paste(_ image: PNGImage, x: Int, y: Int) {
        for row in 0..<image.height {
            for column in 0..<image.width {
                let source = image[column, row], alpha = source >> 24
                let under = self[x + column, y + row]
                var mixed: UInt32 = 0xFF00_0000
                for shift: UInt32 in [0, 8, 16] {
                    let s = (source >> shift) & 0xFF, d = (under >> shift) & 0xFF
                    mixed |= ((s * alpha + d * (255 - alpha) + 127) / 255) << shift
                }
                self[x + column, y + row] = mixed
            }
        }
    }

    /// Repaints every pixel of one colour.
    mutating func replace(_ color: UInt32, with other: UInt32) {
        pixels = pixels.map { $0 == color ? other : $0 }
    }

    /// Paints a filled rectangle.
    mutating func fill(x: Int, y: Int, width: Int, height: Int, color: UInt32) {
        for row in y..<(y + height) { for column in x..<(x + width) { self[column, row] = color } }
    }
}

@Suite("Probe on the golden images")
struct ProbeGoldenTests {
    @Test("reads back the value, the thumb's size and the orientation", arguments: GoldenSlider.all)
    func readsGolden(_ golden: GoldenSlider) throws {
        let result = try SliderProbe(image: try golden.image()).measure()
        #expect(result.orientation == (golden.vertical ? .vertical : .horizontal))
        let fraction = try #require(result.fraction)
        #expect(abs(fraction - golden.value) <= 0.005, "fraction \(fraction), drawn at \(golden.value)")
        #expect(abs(result.thumbDiameter - golden.diameter) <= 1, "diameter \(result.thumbDiameter), drawn \(golden.diameter)")
        #expect(result.startHidden == (golden.value == 0))
        #expect(result.endHidden == (golden.value == 1))
        #expect(result.fillReachesThumb == (golden.value > 0))
    }

    @Test("measures the capsule's track exactly at 2x")
    func trackGeometry() throws {
        let result = try SliderProbe(image: try GoldenSlider(name: "capsule-h-v25-rest@2x").image()).measure()
        // The test scene's track: x 24...296, 8 thick, centred in a 320x48 surface; drawn at 2x.
        #expect(result.trackStart == 48 && result.trackEnd == 592 && result.trackThickness == 16)
        #expect(result.thumbX == 2 * (28 + 0.25 * 264) && result.thumbY == 48)
        #expect(result.panel == PixelBox(minX: 0, minY: 0, maxX: 639, maxY: 95))
    }

    @Test("a hidden track start without a panel leaves the value unknown rather than guessed")
    func hiddenStartWithoutPanel() throws {
        var image = try GoldenSlider(name: "capsule-h-v0-rest@1x").image()
        image.replace(0xFF1C_1C1E, with: 0xFF3F_3F3F) // no panel: as in edge mode
        let result = try SliderProbe(image: image).measure()
        #expect(result.panel == nil && result.startHidden && result.fraction == nil)
    }

    @Test("custom colours: a transparent wedge overlay is measured with the colours it was drawn in")
    func customColours() throws {
        let image = try GoldenSlider(name: "overlay-wedge-v-v60@1.5x").image()
        let colors = SliderColors(panel: RGB(red: 0, green: 0, blue: 0), track: RGB(red: 0x40, green: 0x40, blue: 0x40),
                                  fill: RGB(hex: "#FF9F0A")!, thumb: RGB(hex: "#F2F2F7")!)
        let result = try SliderProbe(image: image, colors: colors).measure()
        #expect(abs(try #require(result.fraction) - 0.6) <= 0.005)
        #expect(abs(result.thumbDiameter - 9 * 1.5 * 2 * 1.5) <= 1)
    }
}

@Suite("Probe on screenshot-like images")
struct ProbeScreenshotTests {
    @Test("finds the slider in a larger screen, ignoring a white patch and a grey bar in line with the track")
    func inScreen() throws {
        var screen = screenshot(width: 800, height: 600)
        screen.paste(try GoldenSlider(name: "capsule-h-v25-grown@1x").image(), x: 240, y: 276)
        screen.fill(x: 100, y: 100, width: 12, height: 18, color: 0xFFFF_FFFF)
        screen.fill(x: 90, y: 300, width: 30, height: 6, color: 0xFF48_484A)
        let result = try SliderProbe(image: screen).measure()
        #expect(abs(try #require(result.fraction) - 0.25) <= 0.005)
        #expect(abs(result.thumbX - (240 + 94)) <= 0.5 && abs(result.thumbY - 300) <= 0.5)
        #expect(result.panel == PixelBox(minX: 240, minY: 276, maxX: 559, maxY: 323))
    }

    @Test("at 2x the grown thumb's shadow cuts the track in two; both pieces are still found", arguments: ["capsule", "wedge"])
    func doubleScale(shape: String) throws {
        var screen = screenshot(width: 1280, height: 960)
        screen.paste(try GoldenSlider(name: "\(shape)-h-v25-grown@2x").image(), x: 320, y: 432)
        let result = try SliderProbe(image: screen).measure()
        #expect(abs(try #require(result.fraction) - 0.25) <= 0.005)
        #expect(result.trackStart == 320 + 48 && result.trackEnd == 320 + 592)
        #expect(abs(result.thumbDiameter - 72) <= 1)
    }

    @Test("an edge overlay half off the screen: the thumb's visible half is measured by its area")
    func halfHidden() throws {
        // A vertical slider whose left half lies beyond the screen's left edge.
        let slider = try GoldenSlider(name: "capsule-v-v25-rest@1x").image()
        var screen = screenshot(width: 200, height: 320)
        let right = PNGImage(width: 24, height: 320, pixels: (0..<(24 * 320)).map { slider[24 + $0 % 24, $0 / 24] })
        screen.paste(right, x: 0, y: 0)
        let result = try SliderProbe(image: screen).measure()
        #expect(result.orientation == .vertical)
        #expect(result.thumbBox.minX == 0 && result.thumbBox.width == 9)
    }

    @Test("an image without the slider's colours is a clear error")
    func noSlider() {
        #expect(throws: ProbeError.self) { try SliderProbe(image: screenshot(width: 64, height: 64)).measure() }
        do {
            _ = try SliderProbe(image: screenshot(width: 64, height: 64)).measure()
        } catch {
            #expect(error.description == "no slider found: no region of track or fill colour")
        }
    }
}

@Suite("Probe output")
struct ProbeOutputTests {
    @Test("numbers are printed with fixed decimals, locale-free")
    func fixedDecimals() {
        #expect(fixed(0.25, 4) == "0.2500")
        #expect(fixed(-0.00004, 4) == "0.0000")
        #expect(fixed(-1.5, 1) == "-1.5")
        #expect(fixed(299.995, 2) == "300.00")
        #expect(fixed(.nan, 2) == "nan")
    }

    @Test("JSON carries every key, with null for what was not measured")
    func json() throws {
        var image = try GoldenSlider(name: "capsule-h-v0-rest@1x").image()
        image.replace(0xFF1C_1C1E, with: 0xFF3F_3F3F)
        let text = try SliderProbe(image: image).measure().json
        #expect(text.hasPrefix("{\"orientation\":\"horizontal\",\"image.width\":320,\"image.height\":48,\"fraction\":null,"))
        #expect(text.contains("\"panel.x\":null") && text.contains("\"track.start_hidden\":true"))
    }
}
