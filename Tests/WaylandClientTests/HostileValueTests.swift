// The rules that make every number a compositor sends usable: scales clamped, sizes cut to what a
// buffer may take, titles cut to what a message holds, refresh rates kept sane, broken keymaps
// refused with one line, and each kind of warning given once.
import Posix
import Testing
@testable import WaylandClient

/// Values a compositor may send where a scale or a size is expected, the edges of each type first.
private let hostileInt32: [Int32] = [.min, -1_000_000, -1, 0, 1, 2, 15, 16, 17, 30, 31, 119, 120, 121, 1920, 1921,
                                     16384, 16385, 35_791_394, 35_791_395, 100_000, .max - 1, .max]
private let hostileUInt32: [UInt32] = [0, 1, 29, 30, 31, 119, 120, 121, 1919, 1920, 1921, 35_791_395,
                                       42_949_673, 0x7fff_ffff, 0x8000_0000, .max - 119, .max - 1, .max]

@Suite struct HostileScaleTests {
    @Test("an integer scale is drawn at 1…16×: below 1 at 1× silently, above 16 at 16× with a warning")
    func integerScalesAreClamped() {
        for raw in hostileInt32 {
            let expected = min(max(raw, 1), 16)
            #expect(SurfaceScale(integer: raw).value120 == UInt32(expected) * 120, "\(raw)")
            #expect(SurfaceScale.integerOutputScale(raw) == (expected, raw > 16), "\(raw)")
            #expect(integerScale(entered: [raw], allOutputs: []) == expected)
        }
        #expect(integerScale(entered: [], allOutputs: [1, .max]) == 16)
    }

    @Test("a fractional scale is drawn at ¼…16×: 0 at 1× silently, the rest clamped with a warning")
    func fractionalScalesAreClamped() {
        for raw in hostileUInt32 {
            let expected: UInt32 = raw == 0 ? 120 : min(max(raw, 30), 1920)
            #expect(SurfaceScale(fractional: raw).value120 == expected, "\(raw)")
            #expect(SurfaceScale.fractionalValue120(raw) == (expected, raw != 0 && raw != expected), "\(raw)")
        }
        #expect(SurfaceScale(fractional: 30).description == "0.25")
        #expect(SurfaceScale(fractional: .max).description == "16")
    }

    @Test("nothing computed from any scale and any size traps, and every buffer is at least 1×1")
    func noConversionTraps() throws {
        var scales = hostileInt32.map { SurfaceScale(integer: $0) } + hostileUInt32.map { SurfaceScale(fractional: $0) }
        var generator = SplitMix64(seed: 0x5eed)
        for _ in 0..<200 { scales.append(SurfaceScale(fractional: UInt32(truncatingIfNeeded: generator.next()))) }
        for scale in scales {
            _ = (scale.description, scale.factor, scale.integerCeiling)
            #expect((1...16).contains(scale.integerCeiling))
            for width in hostileInt32 {
                for height in [Int32.min, -1, 0, 1, 48, .max] {
                    let logical = LogicalSize(width: width, height: height)
                    let buffer = scale.bufferSize(for: logical)
                    if width > 0 { #expect(buffer.width >= 1) }
                    if height > 0 { #expect(buffer.height >= 1) }
                    _ = scale.bufferRect(for: LogicalRect(x: width, y: height, width: width, height: height), in: logical)
                    let fitted = scale.fittingLogicalSize(logical)
                    let fittedBuffer = scale.bufferSize(for: fitted)
                    #expect(fitted.width >= 1 && fitted.height >= 1)
                    #expect(fitted.width <= max(width, 1) && fitted.height <= max(height, 1))
                    #expect(fittedBuffer.width <= BufferLimits.maximumSide && fittedBuffer.height <= BufferLimits.maximumSide)
                    let layout = try ShmPool.layout(fittedBuffer)
                    #expect(layout.length <= BufferLimits.maximumBytes, "\(logical) at \(scale): \(fitted)")
                }
            }
        }
    }

    @Test("a size that fits is kept; a huge one is cut to 16384 buffer pixels a side, then to 128 MiB in proportion")
    func hugeSizesAreCut() {
        let one = SurfaceScale.one
        #expect(one.fittingLogicalSize(LogicalSize(width: 320, height: 48)) == LogicalSize(width: 320, height: 48))
        #expect(one.fittingLogicalSize(LogicalSize(width: 16384, height: 2048)) == LogicalSize(width: 16384, height: 2048))
        #expect(one.fittingLogicalSize(LogicalSize(width: 7680, height: 4320)) == LogicalSize(width: 7680, height: 4320), "8K fits")
        #expect(one.fittingLogicalSize(LogicalSize(width: 100_000, height: 48)) == LogicalSize(width: 16384, height: 48))
        #expect(one.fittingLogicalSize(LogicalSize(width: 100_000, height: 100_000)) == LogicalSize(width: 5792, height: 5792))
        #expect(one.fittingLogicalSize(LogicalSize(width: .max, height: .max)) == LogicalSize(width: 5792, height: 5792))
        // 16384 × 4096 is twice the budget: both sides shrink by √2.
        #expect(one.fittingLogicalSize(LogicalSize(width: 16384, height: 4096)) == LogicalSize(width: 11585, height: 2896))
        // At 2× a side holds 8192 logical pixels; at 16× 1024, and 362² logical is 5792² pixels.
        #expect(SurfaceScale(integer: 2).fittingLogicalSize(LogicalSize(width: 9000, height: 48)) == LogicalSize(width: 8192, height: 48))
        #expect(SurfaceScale(integer: 16).fittingLogicalSize(LogicalSize(width: 4000, height: 48)) == LogicalSize(width: 1024, height: 48))
        #expect(SurfaceScale(integer: 16).fittingLogicalSize(LogicalSize(width: .max, height: .max)) == LogicalSize(width: 362, height: 362))
        // At 1.5× rounding: 10923 × 1.5 = 16384.5 → 16385 (half away from zero) is one too many.
        #expect(SurfaceScale(fractional: 180).fittingLogicalSize(LogicalSize(width: 20000, height: 10)) == LogicalSize(width: 10922, height: 10))
        // At ¼ a side holds 65537 logical pixels (65537 / 4 = 16384.25 → 16384).
        #expect(SurfaceScale(fractional: 30).fittingLogicalSize(LogicalSize(width: 100_000, height: 4)) == LogicalSize(width: 65537, height: 4))
    }

    @Test("the limits hold together: eight buffers of the largest size fit in one wl_shm_pool")
    func limitsFitAPool() throws {
        #expect(BufferSet.maximumCount * BufferLimits.maximumBytes <= ShmPool.maximumCapacity)
        let side = try ShmPool.layout(PixelSize(width: BufferLimits.maximumSide, height: 1))
        #expect(side.stride == 65536)
    }
}

@Suite struct HostileConfigureTests {
    @Test("toplevel: negative and 0 sides are the client's choice; anything positive is kept (the surface cuts it)")
    func toplevelSizes() {
        let preferred = LogicalSize(width: 320, height: 48)
        #expect(Toplevel.configuredSize(width: .min, height: -1, preferred: preferred) == preferred)
        #expect(Toplevel.configuredSize(width: .max, height: 1, preferred: preferred) == LogicalSize(width: .max, height: 1))
        #expect(Toplevel.configuredSize(width: 0, height: 0, preferred: LogicalSize(width: 0, height: -3)) == LogicalSize(width: 1, height: 1))
    }

    @Test("layer surface: uint32 sides beyond int32 become Int32.max (the surface cuts it), 0 the requested size")
    func layerSizes() {
        let requested = LogicalSize(width: 320, height: 48)
        #expect(LayerSurface.configuredSize(width: .max, height: 0x8000_0000, requested: requested) == LogicalSize(width: .max, height: .max))
        #expect(LayerSurface.configuredSize(width: 0, height: 1, requested: requested) == LogicalSize(width: 320, height: 1))
    }
}

@Suite struct TitleTests {
    @Test("a string argument holds 4083 bytes: 4096 minus the 8-byte header, the 4-byte length and the NUL")
    func limit() {
        #expect(Toplevel.maximumStringBytes == 4096 - 8 - 4 - 1)
        #expect((8 + 4 + (Toplevel.maximumStringBytes + 1 + 3) / 4 * 4) == 4096)
    }

    @Test("a title that fits is sent as it is")
    func fits() {
        let title = String(repeating: "x", count: 4083)
        #expect(Toplevel.wireString(title) == title)
        #expect(Toplevel.wireString("") == "")
        #expect(Toplevel.wireString("wlslider — ☀︎") == "wlslider — ☀︎")
    }

    @Test("a longer one is cut at the last whole character that fits", arguments: [
        ("x", 5000, 4083),          // 1 byte each
        ("é", 2100, 4082),          // 2 bytes: 2041 of them
        ("€", 1400, 4083),          // 3 bytes: 1361
        ("😀", 1100, 4080),         // 4 bytes: 1020
        ("e\u{301}", 1400, 4083),   // e + combining acute, 3 bytes a character: 1361
        ("👨‍👩‍👧", 300, 4068),    // a family, 18 bytes in one grapheme cluster: 226
    ])
    func cut(unit: String, count: Int, bytes: Int) {
        let title = String(repeating: unit, count: count)
        let wire = Toplevel.wireString(title)
        #expect(wire.utf8.count == bytes)
        #expect(wire == String(repeating: unit, count: bytes / unit.utf8.count), "whole characters only")
    }

    @Test("the cut lands between characters whatever comes before: an odd prefix, then 2- to 4-byte ones")
    func cutAfterPrefix() {
        for unit in ["é", "€", "😀"] {
            for prefix in ["", "x", "xx", "xxx"] {
                let wire = Toplevel.wireString(prefix + String(repeating: unit, count: 3000))
                let units = (4083 - prefix.utf8.count) / unit.utf8.count
                #expect(wire == prefix + String(repeating: unit, count: units), "\(prefix.count) + \(unit)")
            }
        }
    }

    @Test("one character longer than a message (a letter with thousands of marks) is cut between its scalars")
    func giantCharacter() {
        let title = "e" + String(repeating: "\u{301}", count: 3000)
        #expect(title.count == 1)
        let wire = Toplevel.wireString(title)
        #expect(wire.utf8.count == 4083 && wire.unicodeScalars.count == 1 + 2041)
    }
}

@Suite struct OutputRefreshTests {
    @Test("only the current mode sets the refresh rate; a negative one means unknown")
    func modeFlags() {
        let current: UInt32 = 1, preferred: UInt32 = 2
        #expect(Output.currentRefresh(flags: current, refresh: 60000) == 60000)
        #expect(Output.currentRefresh(flags: current | preferred, refresh: 144_000) == 144_000)
        #expect(Output.currentRefresh(flags: preferred, refresh: 144_000) == nil)
        #expect(Output.currentRefresh(flags: 0, refresh: 30000) == nil)
        #expect(Output.currentRefresh(flags: current, refresh: -60000) == 0)
        #expect(Output.currentRefresh(flags: current, refresh: .min) == 0)
        #expect(Output.currentRefresh(flags: .max, refresh: .max) == .max)
    }

    @Test("a frame lasts as long as the fastest entered output's (else any output's) frame; 60 Hz when unknown")
    func interval() {
        #expect(frameIntervalMilliseconds(entered: [], allOutputs: []) == 1000.0 / 60)
        #expect(frameIntervalMilliseconds(entered: [0], allOutputs: [0]) == 1000.0 / 60)
        #expect(frameIntervalMilliseconds(entered: [60000], allOutputs: [144_000]) == 1000.0 / 60)
        #expect(frameIntervalMilliseconds(entered: [60000, 120_000], allOutputs: []) == 1000.0 / 120)
        #expect(frameIntervalMilliseconds(entered: [0], allOutputs: [30000, 144_000]) == 1000.0 / 144)
        #expect(frameIntervalMilliseconds(entered: [], allOutputs: [59940]) == 1_000_000.0 / 59940)
    }

    @Test("absurd refresh rates are kept within 1–1000 Hz")
    func absurdRates() {
        #expect(frameIntervalMilliseconds(entered: [.max], allOutputs: []) == 1)
        #expect(frameIntervalMilliseconds(entered: [1_000_001], allOutputs: []) == 1)
        #expect(frameIntervalMilliseconds(entered: [1], allOutputs: []) == 1000)
        #expect(frameIntervalMilliseconds(entered: [999], allOutputs: []) == 1000)
        #expect(frameIntervalMilliseconds(entered: [], allOutputs: [.max, 60000]) == 1)
    }
}

@Suite struct WarningLogTests {
    @Test("each kind of problem is news once; a resolved one is news again; messages wait for a receiver in order")
    func once() {
        var log = WarningLog()
        var news: [Bool] = []
        news.append(log.isNews(.outputScale))
        news.append(log.isNews(.outputScale))
        news.append(log.isNews(.keymap))
        log.resolved(.keymap)
        news.append(log.isNews(.keymap))
        news.append(log.isNews(.keymap))
        news.append(log.isNews(.fractionalScale))
        #expect(news == [true, false, true, true, false, true])
        log.hold("one")
        log.hold("two")
        #expect(log.takeHeld() == ["one", "two"])
        #expect(log.takeHeld().isEmpty)
    }
}

@Suite struct HostileKeymapTests {
    /// A complete keymap without includes: evdev 106 (xkb 114) is Right.
    private let minimal = """
        xkb_keymap {
            xkb_keycodes { minimum = 8; maximum = 255; <RGHT> = 114; };
            xkb_types { };
            xkb_compat { };
            xkb_symbols { key <RGHT> { [ Right ] }; };
        };
        """

    private func keymap(_ bytes: [UInt8], announced: UInt32? = nil) throws -> XKBKeymap {
        let file = try FileDescriptor.memoryFile(name: "keymap-test")
        _ = try bytes.withUnsafeBytes { try file.descriptor.write($0) }
        let context = try #require(XKBKeymap.quietContext())
        defer { XKBKeymap.release(context) }
        return try XKBKeymap(context: context, fd: file.descriptor, size: announced ?? UInt32(bytes.count))
    }

    private func failure(_ bytes: [UInt8], announced: UInt32? = nil) -> String? {
        do {
            _ = try keymap(bytes, announced: announced)
            return nil
        } catch let error as XKBKeymap.Failure {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test("a usable keymap decodes keys, even when the file is shorter than announced (read, never mapped)")
    func usable() throws {
        let text = Array(minimal.utf8) + [0]
        #expect(try keymap(text).keysym(code: 106) == 0xff53)
        #expect(try keymap(text, announced: 1 << 20).keysym(code: 106) == 0xff53)
    }

    @Test("short, empty, oversized and garbage keymaps are refused with one line each")
    func refused() {
        let text = Array(minimal.utf8)
        #expect(failure(Array(text.prefix(100)), announced: 65536)
                == "the compositor's keymap does not compile (its file holds 100 of the 65536 bytes announced)")
        #expect(failure([]) == "the compositor sent an empty keymap")
        #expect(failure([0, 0, 0]) == "the compositor's keymap does not compile")
        #expect(failure(Array("xkb_keymap { nonsense".utf8) + [0xff, 0xfe]) == "the compositor's keymap does not compile")
        #expect(failure(text, announced: .max) == "the compositor announced a keymap of 4294967295 bytes (at most 16777216 accepted)")
    }

    @Test("key codes no xkb keycode can name are nobody's key")
    func impossibleCodes() throws {
        #expect(XKBKeymap.keycode(0xffff_ffff) == nil)
        #expect(XKBKeymap.keycode(0xffff_fff8) == nil)
        #expect(XKBKeymap.keycode(0xffff_fff7) == nil)
        #expect(XKBKeymap.keycode(0xffff_fff6) == 0xffff_fffe)
        let map = try keymap(Array(minimal.utf8))
        for code: UInt32 in [0, 7, 0xffff_fff6, 0xffff_fff8, 0xffff_ffff] {
            #expect(map.keysym(code: code) == 0 && !map.repeats(code: code))
        }
    }
}

/// A small seeded generator (SplitMix64), so the random cases are the same on every run.
private struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
