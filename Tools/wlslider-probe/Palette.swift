// Which part of the slider each screenshot pixel belongs to, by its nearest colour.
//
// A screenshot holds the slider's four colours (panel, track, fill, thumb) plus whatever the
// compositor draws around it (its background, a cursor, decorations). Every pixel goes to the
// nearest of those colours; an antialiased edge pixel therefore goes to the side that covers more
// than about half of it, which puts measured edges within half a pixel of the true ones.

/// An opaque sRGB colour, 8 bits per channel.
struct RGB: Equatable, CustomStringConvertible {
    var red: Int, green: Int, blue: Int

    /// Parses `#RRGGBB` (either case); nil for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"), let v = UInt32(String(hex.dropFirst()), radix: 16) else { return nil }
        self.init(argb: v)
    }

    /// The colour part of `0x..RRGGBB`.
    init(argb: UInt32) {
        red = Int((argb >> 16) & 0xFF)
        green = Int((argb >> 8) & 0xFF)
        blue = Int(argb & 0xFF)
    }

    init(red: Int, green: Int, blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Squared Euclidean distance in RGB.
    func distanceSquared(_ other: RGB) -> Int {
        let r = red - other.red, g = green - other.green, b = blue - other.blue
        return r * r + g * g + b * b
    }

    var description: String {
        let hex = String((red << 16) | (green << 8) | blue, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }
}

/// The slider part a pixel shows.
enum Part: UInt8 {
    /// Anything that is not the slider (the compositor's background, a cursor's outline, shadow).
    case other
    /// The slider's own background panel.
    case panel
    /// The track above the value.
    case track
    /// The track below the value.
    case fill
    /// The thumb.
    case thumb
}

/// The slider's colours, as drawn (wlslider's defaults unless the caller says otherwise).
struct SliderColors {
    var panel = RGB(red: 0x1C, green: 0x1C, blue: 0x1E)
    var track = RGB(red: 0x48, green: 0x48, blue: 0x4A)
    var fill = RGB(red: 0x0A, green: 0x84, blue: 0xFF)
    var thumb = RGB(red: 0xFF, green: 0xFF, blue: 0xFF)
}

/// Every pixel of an image classified into a `Part`, row-major.
struct PartMap {
    let width: Int
    let height: Int
    private(set) var parts: [Part]

    /// Classifies premultiplied-over-black pixels (`0xAARRGGBB`, straight alpha) by nearest colour
    /// among the slider's colours and `surroundings` (the compositor's colours).
    init(width: Int, height: Int, pixels: [UInt32], colors: SliderColors, surroundings: [RGB]) {
        self.width = width
        self.height = height
        let palette: [(RGB, Part)] = [(colors.panel, .panel), (colors.track, .track), (colors.fill, .fill),
                                      (colors.thumb, .thumb)] + surroundings.map { ($0, .other) }
        var cache: [UInt32: Part] = [:]
        parts = pixels.map { pixel in
            let key = Self.overBlack(pixel)
            if let known = cache[key] { return known }
            let colour = RGB(argb: key)
            let part = palette.min { $0.0.distanceSquared(colour) < $1.0.distanceSquared(colour) }!.1
            cache[key] = part
            return part
        }
    }

    subscript(x: Int, y: Int) -> Part { parts[y * width + x] }

    /// A straight-alpha pixel composited over black (screenshots are opaque; this only matters for
    /// transparent reference images).
    static func overBlack(_ pixel: UInt32) -> UInt32 {
        let alpha = pixel >> 24
        guard alpha < 255 else { return pixel & 0xFF_FFFF }
        var result: UInt32 = 0
        for shift: UInt32 in [0, 8, 16] { result |= ((((pixel >> shift) & 0xFF) * alpha + 127) / 255) << shift }
        return result
    }
}

/// The most common colour of an image (sampled): the compositor's background in a screenshot.
func dominantColor(of pixels: [UInt32]) -> RGB {
    var counts: [UInt32: Int] = [:]
    let stride = max(1, pixels.count / 50_000)
    for index in Swift.stride(from: 0, to: pixels.count, by: stride) {
        counts[PartMap.overBlack(pixels[index]), default: 0] += 1
    }
    let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }
    return RGB(argb: best?.key ?? 0)
}
