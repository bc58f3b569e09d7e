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
    func noConversionTraps() {
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
                }
            }
        }
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
