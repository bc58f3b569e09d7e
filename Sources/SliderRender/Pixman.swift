// The renderer's only contact with pixman: images (owned references), clip regions and
// composites. Everything else in the module speaks PixelRect, Color and CoverageMask.
internal import CPixman

/// How a layer combines with what is already in the buffer.
enum BlendOp {
    /// Replace (PIXMAN_OP_SRC): used for the background, so a repaint never depends on old pixels.
    case source
    /// Porter-Duff over (PIXMAN_OP_OVER) on premultiplied colours.
    case over

    var pixman: pixman_op_t {
        switch self {
        case .source: PIXMAN_OP_SRC
        case .over: PIXMAN_OP_OVER
        }
    }
}

/// One owned reference to a pixman image, released on deinit; owns the pixels of masks it
/// allocated itself.
final class PixmanImage {
    fileprivate let handle: OpaquePointer
    private let ownedBytes: UnsafeMutableRawPointer?
    /// Bytes from one row of `ownedBytes` to the next.
    private let ownedStride: Int

    private init(handle: OpaquePointer, ownedBytes: UnsafeMutableRawPointer?, stride: Int = 0) {
        self.handle = handle
        self.ownedBytes = ownedBytes
        ownedStride = stride
    }

    deinit {
        pixman_image_unref(handle)
        ownedBytes?.deallocate()
    }

    /// A solid colour source covering the whole plane, given as premultiplied ARGB8888.
    ///
    /// pixman wants premultiplied 16-bit channels; widening 8-bit `v` to `v * 257` keeps the
    /// composites bit-exact with 8-bit arithmetic.
    convenience init(solidPremultiplied argb: UInt32) {
        func widen(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xFF) * 257 }
        var color = pixman_color_t(red: widen(16), green: widen(8), blue: widen(0), alpha: widen(24))
        guard let handle = pixman_image_create_solid_fill(&color) else {
            fatalError("pixman_image_create_solid_fill failed: out of memory")
        }
        self.init(handle: handle, ownedBytes: nil)
    }

    /// An 8-bit alpha mask of `width` × `height` whose bytes are produced by `coverage(column, row)`.
    convenience init(alphaWidth width: Int, height: Int, coverage: (Int, Int) -> UInt8) {
        self.init(format: PIXMAN_a8, bytesPerPixel: 1, width: width, height: height) { bytes, stride, column, row in
            bytes.storeBytes(of: coverage(column, row), toByteOffset: row * stride + column, as: UInt8.self)
        }
    }

    /// A premultiplied ARGB8888 image of `width` × `height` whose pixels are produced by
    /// `pixel(column, row)`.
    convenience init(argbWidth width: Int, height: Int, pixel: (Int, Int) -> UInt32) {
        self.init(format: PIXMAN_a8r8g8b8, bytesPerPixel: 4, width: width, height: height) { bytes, stride, column, row in
            bytes.storeBytes(of: pixel(column, row), toByteOffset: row * stride + column * 4, as: UInt32.self)
        }
    }

    /// A fully transparent premultiplied ARGB8888 image of `width` × `height`.
    convenience init(argbWidth width: Int, height: Int) {
        self.init(format: PIXMAN_a8r8g8b8, bytesPerPixel: 4, width: width, height: height) { _, _, _, _ in }
    }

    private convenience init(format: pixman_format_code_t, bytesPerPixel: Int, width: Int, height: Int,
                             store: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) {
        // pixman needs rows aligned to 4 bytes; an empty image still gets one pixel so it is
        // valid (and fully transparent).
        let w = max(width, 1), h = max(height, 1)
        let stride = (w * bytesPerPixel + 3) & ~3
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: stride * h, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: stride * h)
        for row in 0..<min(height, h) {
            for column in 0..<min(width, w) { store(bytes, stride, column, row) }
        }
        guard let handle = pixman_image_create_bits(format, Int32(w), Int32(h), bytes.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            fatalError("pixman_image_create_bits(\(w)x\(h), \(bytesPerPixel) bytes per pixel) failed: out of memory")
        }
        self.init(handle: handle, ownedBytes: bytes, stride: stride)
    }

    /// The pixels of an image this type allocated (a mask or a sprite), to read directly; nil
    /// for a solid colour.
    var rows: PixelRows? {
        ownedBytes.map { PixelRows(base: $0, stride: ownedStride) }
    }

    /// Composites `source` (top-left pixel on `sourceOrigin`; irrelevant for solid colours),
    /// seen through `mask` (top-left pixel on `maskOrigin`), onto `area` of this image.
    func composite(_ op: BlendOp, _ source: PixmanImage, sourceOrigin: (x: Int, y: Int) = (0, 0), mask: PixmanImage? = nil,
                   maskOrigin: (x: Int, y: Int) = (0, 0), area: PixelRect) {
        compositeArea(op, source, sourceOrigin: sourceOrigin, mask: mask, maskOrigin: maskOrigin, onto: handle, area: area)
    }
}

/// Rows of pixels in memory: the first row's address and the bytes from one row to the next.
struct PixelRows {
    let base: UnsafeMutableRawPointer
    let stride: Int

    /// Row `y` as 32-bit pixels.
    @inline(__always)
    func argb(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * stride).assumingMemoryBound(to: UInt32.self)
    }

    /// Row `y` as 8-bit coverage.
    @inline(__always)
    func alpha(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        (base + y * stride).assumingMemoryBound(to: UInt8.self)
    }
}

/// The one pixman_image_composite32 call: `source` (top-left pixel on `sourceOrigin`) through
/// `mask` (top-left pixel on `maskOrigin`) onto `area` of `destination`.
private func compositeArea(_ op: BlendOp, _ source: PixmanImage, sourceOrigin: (x: Int, y: Int), mask: PixmanImage?,
                           maskOrigin: (x: Int, y: Int), onto destination: OpaquePointer, area: PixelRect) {
    pixman_image_composite32(
        op.pixman, source.handle, mask?.handle, destination,
        Int32(area.x - sourceOrigin.x), Int32(area.y - sourceOrigin.y),
        Int32(area.x - maskOrigin.x), Int32(area.y - maskOrigin.y),
        Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height)
    )
}
