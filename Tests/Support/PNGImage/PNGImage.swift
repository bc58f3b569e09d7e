// PNG files in and out, through libpng's "simplified" API (png_image_*), which reports
// errors in a message field instead of longjmp — the classic API's setjmp/longjmp error
// handling cannot be used safely from Swift.
internal import CPNG

/// Why a PNG could not be read or written: the file, what was being done, and libpng's reason.
public struct PNGError: Error, Equatable, CustomStringConvertible {
    /// The file involved.
    public let path: String
    /// The step that failed, e.g. "read" or "write".
    public let operation: String
    /// The reason, from libpng or from the checks here.
    public let reason: String

    public var description: String { "cannot \(operation) PNG \(path): \(reason)" }
}

/// An 8-bit-per-channel RGBA image, as read from or written to a PNG file.
///
/// `pixels` are STRAIGHT (not premultiplied) alpha, one `UInt32` per pixel laid out as
/// `0xAARRGGBB`, rows top to bottom without padding. Renderers work in premultiplied ARGB
/// (Wayland's ARGB8888); convert with `init(width:height:premultiplied:)` and
/// `premultipliedPixels`.
public struct PNGImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Straight-alpha `0xAARRGGBB`, `width * height` of them, row-major.
    public var pixels: [UInt32]

    /// Wraps straight-alpha pixels; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height,
                     "PNGImage: \(pixels.count) pixels do not make a \(width)x\(height) image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Converts premultiplied ARGB8888 pixels (as a Wayland buffer holds them) to straight alpha.
    public init(width: Int, height: Int, premultiplied: [UInt32]) {
        self.init(width: width, height: height, pixels: premultiplied.map(Self.unpremultiply))
    }

    /// The pixel at column `x`, row `y` (straight `0xAARRGGBB`).
    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The pixels premultiplied, as ARGB8888 (rounded to nearest).
    public var premultipliedPixels: [UInt32] { pixels.map(Self.premultiply) }

    /// Straight `0xAARRGGBB` → premultiplied, rounding to nearest.
    public static func premultiply(_ argb: UInt32) -> UInt32 {
        let alpha = argb >> 24
        var result = alpha << 24
        for shift: UInt32 in [0, 8, 16] {
            result |= ((((argb >> shift) & 0xFF) * alpha + 127) / 255) << shift
        }
        return result
    }

    /// Premultiplied `0xAARRGGBB` → straight, rounding to nearest; transparent stays 0.
    public static func unpremultiply(_ argb: UInt32) -> UInt32 {
        let alpha = argb >> 24
        guard alpha > 0 else { return 0 }
        var result = alpha << 24
        for shift: UInt32 in [0, 8, 16] {
            result |= (min(((argb >> shift) & 0xFF) * 255 + alpha / 2, 255 * alpha) / alpha) << shift
        }
        return result
    }
}

extension PNGImage {
    /// Upper bound on the pixels of an image read from a file, so a corrupt or hostile header
    /// cannot ask for gigabytes.
    public static let maximumPixelCount = 64 << 20

    /// Reads any PNG: grey, grey+alpha, palette (with or without tRNS), RGB or RGBA, at any bit
    /// depth, interlaced or not. Everything is expanded to 8-bit straight RGBA; 16-bit channels
    /// without a colour-space chunk are taken as sRGB (like every viewer does), not linear.
    ///
    /// - Throws: `PNGError` naming the file and the reason (missing file, not a PNG, corrupt data).
    public init(contentsOf path: String) throws(PNGError) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw PNGError(path: path, operation: "read", reason: Self.message(of: &image))
        }
        defer { png_image_free(&image) }
        // Must be set after begin_read, which initializes flags.
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        // BGRA in memory is 0xAARRGGBB as a little-endian UInt32.
        image.format = UInt32(PNG_FORMAT_BGRA)
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= Self.maximumPixelCount else {
            throw PNGError(path: path, operation: "read",
                           reason: "\(width)x\(height) is outside 1...\(Self.maximumPixelCount) pixels")
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        let ok = pixels.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, nil, bytes.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            throw PNGError(path: path, operation: "read", reason: Self.message(of: &image))
        }
        self.init(width: width, height: height, pixels: pixels.map(UInt32.init(littleEndian:)))
    }

    /// Writes the image as an 8-bit RGBA PNG (straight alpha, sRGB).
    ///
    /// - Throws: `PNGError` for an empty image or when the file cannot be created or written.
    public func write(to path: String) throws(PNGError) {
        guard width > 0, height > 0 else {
            throw PNGError(path: path, operation: "write", reason: "an image of \(width)x\(height) pixels has nothing to write")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        let words = pixels.map(\.littleEndian)
        let ok = words.withUnsafeBytes { bytes in
            png_image_write_to_file(&image, path, 0, bytes.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            throw PNGError(path: path, operation: "write", reason: Self.message(of: &image))
        }
    }

    /// libpng's error text (or the errno text it stored for a failed fopen).
    private static func message(of image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng gave no reason" : "libpng: \(text)"
    }
}
