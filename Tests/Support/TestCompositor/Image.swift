// Pixels a client committed, copied out of its shm buffer at commit time.

/// A `wl_shm` pixel format code (the DRM fourcc, except 0 and 1 for the two mandatory formats).
public struct ShmFormat: Hashable, Sendable, CustomStringConvertible {
    /// The code as sent on the wire.
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `WL_SHM_FORMAT_ARGB8888`: 32-bit premultiplied ARGB, little-endian (0xAARRGGBB per pixel).
    public static let argb8888 = ShmFormat(rawValue: 0)
    /// `WL_SHM_FORMAT_XRGB8888`: like ARGB8888 with the alpha byte ignored.
    public static let xrgb8888 = ShmFormat(rawValue: 1)
    /// Bytes per pixel for the formats the compositor can copy, nil for any other.
    var bytesPerPixel: Int? { self == .argb8888 || self == .xrgb8888 ? 4 : nil }
    public var description: String {
        switch self {
        case .argb8888: "ARGB8888"
        case .xrgb8888: "XRGB8888"
        default: "format 0x\(String(rawValue, radix: 16))"
        }
    }
}

/// A copy of a buffer's pixels, one `UInt32` per pixel (0xAARRGGBB), rows packed without padding.
public struct Image: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Size in pixels.
    public let width: Int
    public let height: Int
    /// Row-major pixels, `width * height` of them (the client's stride padding is dropped).
    public let pixels: [UInt32]

    /// An image from packed row-major pixels (`width * height` of them).
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "Image: \(pixels.count) pixels for \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y` (0xAARRGGBB).
    public subscript(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "Image: (\(x), \(y)) outside \(width)×\(height)")
        return pixels[y * width + x]
    }

    /// A short account (the pixels themselves would flood a test log).
    public var description: String { "Image \(width)×\(height), \(distinctColorCount) colours" }
    public var debugDescription: String { description }

    /// How many distinct pixel values the image holds (1 for a flat fill).
    public var distinctColorCount: Int { Set(pixels).count }

    /// The number of pixels for which `predicate` holds inside `rect` (clipped to the image).
    public func count(in rect: Rect? = nil, where predicate: (UInt32) -> Bool) -> Int {
        let r = clipped(rect)
        var n = 0
        for y in r.y0..<r.y1 {
            for x in r.x0..<r.x1 where predicate(pixels[y * width + x]) { n += 1 }
        }
        return n
    }

    /// The columns and rows that differ from `other` (same size required), or nil when identical.
    public func differingBounds(from other: Image) -> Rect? {
        precondition(width == other.width && height == other.height, "Image: comparing \(width)×\(height) with \(other.width)×\(other.height)")
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x] != other.pixels[y * width + x] {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return nil }
        return Rect(x: Int32(x0), y: Int32(y0), width: Int32(x1 - x0 + 1), height: Int32(y1 - y0 + 1))
    }

    private func clipped(_ rect: Rect?) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        guard let rect else { return (0, 0, width, height) }
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x) + Int(rect.width)), y1 = min(height, Int(rect.y) + Int(rect.height))
        return (x0, y0, max(x0, x1), max(y0, y1))
    }
}
