// Tests of the PNGImage support target (reading every PNG flavour, writing, errors).
// Fixtures of unusual colour types and bit depths are written on the spot with libpng's
// classic API, which can produce all of them.
import CPNG
import Glibc
import PNGImage
import Testing

/// A private temporary directory, removed with its files when the test ends.
final class TemporaryDirectory {
    let path: String
    init() {
        var template = Array("/tmp/wlslider-png-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    deinit {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = String(cString: (UnsafeRawPointer(entry) + (MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19)).assumingMemoryBound(to: CChar.self))
                if name != "." && name != ".." { unlink("\(path)/\(name)") }
            }
            closedir(dir)
        }
        rmdir(path)
    }
    func file(_ name: String) -> String { "\(path)/\(name)" }
}

/// Writes raw PNG rows (already packed for `bitDepth`, 16-bit big-endian) with libpng's classic
/// API. Only valid parameters are passed, so libpng's longjmp error path is never taken.
func writeClassicPNG(_ path: String, width: Int, height: Int, colorType: Int32, bitDepth: Int32,
                     rows: [[UInt8]], palette: [png_color] = [], transparency: [UInt8] = [], interlaced: Bool = false) {
    guard let file = fopen(path, "wb") else { fatalError("fopen \(path)") }
    var png: png_structp? = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, nil)
    var info: png_infop? = png_create_info_struct(png)
    png_init_io(png, file)
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), bitDepth, colorType,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
    if !palette.isEmpty { png_set_PLTE(png, info, palette, Int32(palette.count)) }
    if !transparency.isEmpty { png_set_tRNS(png, info, transparency, Int32(transparency.count), nil) }
    png_write_info(png, info)
    var rowPointers: [UnsafeMutablePointer<UInt8>?] = rows.map { row in
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: row.count)
        p.initialize(from: row, count: row.count)
        return p
    }
    png_write_image(png, &rowPointers)
    png_write_end(png, nil)
    png_destroy_write_struct(&png, &info)
    rowPointers.forEach { $0?.deallocate() }
    fclose(file)
}

@Suite("PNGImage")
struct PNGImageTests {
    let directory = TemporaryDirectory()

    @Test("write then read returns the same straight-alpha pixels")
    func roundTrip() throws {
        var random = SeededRandom(seed: 42)
        let pixels = (0..<(37 * 11)).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
        let image = PNGImage(width: 37, height: 11, pixels: pixels)
        try image.write(to: directory.file("round.png"))
        #expect(try PNGImage(contentsOf: directory.file("round.png")) == image)
    }

    @Test("premultiplying undoes unpremultiplying for every valid premultiplied channel")
    func premultiplication() {
        for alpha: UInt32 in 0...255 {
            for value: UInt32 in 0...alpha {
                let premultiplied = alpha << 24 | value << 16 | (alpha - value) << 8 | value / 2
                #expect(PNGImage.premultiply(PNGImage.unpremultiply(premultiplied)) == premultiplied)
            }
        }
        #expect(PNGImage.premultiply(0x80FF_8000) == 0x8080_4000)
        #expect(PNGImage.unpremultiply(0x8080_4000) == 0x80FF_8000)
        #expect(PNGImage.unpremultiply(0x00FF_FFFF) == 0)
    }

    @Test("1-bit grey")
    func grey1() throws {
        let path = directory.file("g1.png")
        writeClassicPNG(path, width: 8, height: 1, colorType: PNG_COLOR_TYPE_GRAY, bitDepth: 1, rows: [[0b1011_0001]])
        let image = try PNGImage(contentsOf: path)
        let w: UInt32 = 0xFFFF_FFFF, b: UInt32 = 0xFF00_0000
        #expect(image.pixels == [w, b, w, w, b, b, b, w])
    }

    @Test("4-bit grey scales 0...15 to 0...255")
    func grey4() throws {
        let path = directory.file("g4.png")
        writeClassicPNG(path, width: 4, height: 1, colorType: PNG_COLOR_TYPE_GRAY, bitDepth: 4, rows: [[0x0F, 0x58]])
        #expect(try PNGImage(contentsOf: path).pixels == [0xFF00_0000, 0xFFFF_FFFF, 0xFF55_5555, 0xFF88_8888])
    }

    @Test("2-bit palette with tRNS transparency")
    func palette2() throws {
        let path = directory.file("p2.png")
        let palette = [png_color(red: 255, green: 0, blue: 0), png_color(red: 0, green: 255, blue: 0),
                       png_color(red: 0, green: 0, blue: 255), png_color(red: 10, green: 20, blue: 30)]
        writeClassicPNG(path, width: 4, height: 1, colorType: PNG_COLOR_TYPE_PALETTE, bitDepth: 2,
                        rows: [[0b0001_1011]], palette: palette, transparency: [255, 128, 0])
        let pixels = try PNGImage(contentsOf: path).pixels
        #expect(pixels[0] == 0xFFFF_0000 && pixels[1] == 0x8000_FF00 && pixels[2] >> 24 == 0 && pixels[3] == 0xFF0A_141E)
    }

    @Test("8-bit grey + alpha and 8-bit RGB (opaque)")
    func eightBit() throws {
        let ga = directory.file("ga.png"), rgb = directory.file("rgb.png")
        writeClassicPNG(ga, width: 2, height: 1, colorType: PNG_COLOR_TYPE_GRAY_ALPHA, bitDepth: 8, rows: [[0x40, 0xFF, 0xC0, 0x20]])
        writeClassicPNG(rgb, width: 2, height: 2, colorType: PNG_COLOR_TYPE_RGB, bitDepth: 8,
                        rows: [[1, 2, 3, 4, 5, 6], [250, 251, 252, 0, 128, 255]])
        #expect(try PNGImage(contentsOf: ga).pixels == [0xFF40_4040, 0x20C0_C0C0])
        let image = try PNGImage(contentsOf: rgb)
        #expect(image.pixels == [0xFF01_0203, 0xFF04_0506, 0xFFFA_FBFC, 0xFF00_80FF])
        #expect(image[1, 1] == 0xFF00_80FF)
    }

    @Test("16-bit RGB and RGBA are reduced to 8 bits (taken as sRGB, within one step)")
    func sixteenBit() throws {
        let rgb = directory.file("rgb16.png"), rgba = directory.file("rgba16.png")
        writeClassicPNG(rgb, width: 1, height: 1, colorType: PNG_COLOR_TYPE_RGB, bitDepth: 16, rows: [[0x12, 0x34, 0x80, 0x00, 0xFF, 0xFF]])
        writeClassicPNG(rgba, width: 1, height: 1, colorType: PNG_COLOR_TYPE_RGB_ALPHA, bitDepth: 16,
                        rows: [[0xFF, 0xFF, 0x00, 0x00, 0x40, 0x00, 0xFF, 0xFF]])
        let a = try PNGImage(contentsOf: rgb).pixels[0], b = try PNGImage(contentsOf: rgba).pixels[0]
        #expect(channelDistance(a, 0xFF12_80FF) <= 1, "got \(String(a, radix: 16))")
        #expect(channelDistance(b, 0xFFFF_0040) <= 1, "got \(String(b, radix: 16))")
    }

    @Test("interlaced (Adam7) images read like plain ones")
    func interlaced() throws {
        let path = directory.file("adam7.png")
        let rows: [[UInt8]] = (0..<9).map { y in (0..<9).flatMap { x -> [UInt8] in [UInt8(x * 20), UInt8(y * 20), 7] } }
        writeClassicPNG(path, width: 9, height: 9, colorType: PNG_COLOR_TYPE_RGB, bitDepth: 8, rows: rows, interlaced: true)
        let image = try PNGImage(contentsOf: path)
        #expect(image.width == 9 && image.height == 9)
        #expect(image[5, 7] == 0xFF00_0000 | 100 << 16 | 140 << 8 | 7)
    }

    @Test("errors name the file and the reason")
    func errors() throws {
        let missing = directory.file("missing.png")
        #expect(throws: PNGError.self) { try PNGImage(contentsOf: missing) }
        do {
            _ = try PNGImage(contentsOf: missing)
        } catch {
            #expect(error.description.hasPrefix("cannot read PNG \(missing): "))
            #expect(error.description.contains("No such file"))
        }

        let text = directory.file("text.png")
        let handle = fopen(text, "w")!
        fputs("this is not a PNG file at all\n", handle)
        fclose(handle)
        #expect(throws: PNGError.self) { try PNGImage(contentsOf: text) }

        // A valid PNG cut short fails in finish_read, not with a crash.
        let whole = directory.file("whole.png"), cut = directory.file("cut.png")
        try PNGImage(width: 64, height: 64, pixels: (0..<4096).map { UInt32($0) &* 2_654_435_761 }).write(to: whole)
        let source = fopen(whole, "rb")!, target = fopen(cut, "wb")!
        var bytes = [UInt8](repeating: 0, count: 200)
        fwrite(&bytes, 1, fread(&bytes, 1, 200, source), target)
        fclose(source)
        fclose(target)
        #expect(throws: PNGError.self) { try PNGImage(contentsOf: cut) }

        #expect(throws: PNGError.self) { try PNGImage(width: 1, height: 1, pixels: [0]).write(to: directory.file("no/such/dir.png")) }
        let empty = #expect(throws: PNGError.self) { try PNGImage(width: 0, height: 0, pixels: []).write(to: "x.png") }
        #expect(empty?.description == "cannot write PNG x.png: an image of 0x0 pixels has nothing to write")
    }
}
