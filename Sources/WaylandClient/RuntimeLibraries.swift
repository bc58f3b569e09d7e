// Libraries loaded with dlopen when first needed instead of linked: a linked library is mapped and
// relocated by the dynamic loader at every start, before `main`, and these three are needed by
// few runs, never before the first frame. libxkbcommon at the first key (Keyboard.swift),
// libwayland-cursor for a pointer where the compositor offers no cursor-shape-v1 (Cursor.swift),
// libdecor where the compositor draws no title bars (Decorations.swift). Their C shims (CXKBCommon,
// CWaylandCursor, CLibdecor) resolve the few functions used into a table. A library that is
// missing, or lacks one of them, leaves wlslider running without what it gives, and one line on
// stderr says so.
import Posix
internal import CWaylandCursor
internal import CXKBCommon

/// Runs a shim's loader with room for its reason: nil when the library is loaded, else why not (one
/// line, as `dlerror` gives it, or the function it lacks).
func loadRuntimeLibrary(_ load: (UnsafeMutablePointer<CChar>?, Int) -> Bool) -> String? {
    var reason = [CChar](repeating: 0, count: 512)
    let loaded = reason.withUnsafeMutableBufferPointer { load($0.baseAddress, $0.count) }
    return loaded ? nil : String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// libxkbcommon, for keymaps and keysyms.
enum XKBCommonLibrary {
    /// The library loaded: libxkbcommon's soname, or `WLSLIDER_LIBXKBCOMMON` (a soname or path),
    /// which is for tests: they name one that does not exist to play a system without it.
    static var name: String { environmentVariable("WLSLIDER_LIBXKBCOMMON") ?? "libxkbcommon.so.0" }

    /// nil once libxkbcommon is loaded, else why it is not. Loaded the first time this is read, and
    /// tried only then: a missing library stays missing for the rest of the run.
    static let failure: String? = loadRuntimeLibrary { wlslider_xkb_load(name, $0, $1) }
}

/// libwayland-cursor, for themed cursor images.
enum WaylandCursorLibrary {
    /// The library loaded: libwayland-cursor's soname, or `WLSLIDER_LIBWAYLAND_CURSOR` (a soname or
    /// path), which is for tests: they name one that does not exist, or one without its functions,
    /// to play a system without it.
    static var name: String { environmentVariable("WLSLIDER_LIBWAYLAND_CURSOR") ?? "libwayland-cursor.so.0" }

    /// nil once libwayland-cursor is loaded, else why it is not. Loaded the first time this is
    /// read, and tried only then.
    static let failure: String? = loadRuntimeLibrary { wlslider_wayland_cursor_load(name, $0, $1) }
}
