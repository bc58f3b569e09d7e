// The rules that make every number a compositor sends usable: scales clamped, sizes cut to what a
// buffer may take, titles cut to what a message holds, refresh rates kept sane, broken keymaps
// refused with one line, and each kind of warning given once.
import Posix
import Testing
@testable import WaylandClient

@Suite struct WarningLogTests {
    @Test("each kind of problem is news once; a resolved one is news again; messages wait for a receiver in order")
    func once() {
        var log = WarningLog()
        var news: [Bool] = []
        news.append(log.isNews(.keymap))
        news.append(log.isNews(.keymap))
        log.resolved(.keymap)
        news.append(log.isNews(.keymap))
        news.append(log.isNews(.keymap))
        #expect(news == [true, false, true, false])
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
