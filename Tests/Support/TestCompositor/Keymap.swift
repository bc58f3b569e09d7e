// The keyboard layout the compositor sends: a real xkb keymap compiled by xkbcommon from the
// default rule names (evdev/pc105/us unless XKB_DEFAULT_* says otherwise), and an xkb state that
// turns key presses into the modifier masks a real compositor would send.
internal import CXKBCommon
import Glibc

/// `wl_keyboard.modifiers`: the serialized xkb modifier and layout state.
public struct KeyboardModifiers: Hashable, Sendable {
    /// xkb modifier masks (see ``KeyboardControl/modifierMask(_:)``) and the effective layout index.
    public var depressed: UInt32
    public var latched: UInt32
    public var locked: UInt32
    public var group: UInt32
    public init(depressed: UInt32 = 0, latched: UInt32 = 0, locked: UInt32 = 0, group: UInt32 = 0) {
        self.depressed = depressed
        self.latched = latched
        self.locked = locked
        self.group = group
    }
}

final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    /// The keymap in `XKB_KEYMAP_FORMAT_TEXT_V1`, NUL included (the size sent is this count).
    let text: [UInt8]

    init() throws {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw TestCompositorError("test compositor: xkb_context_new failed") }
        // nil names: xkbcommon's defaults (Swift strings in xkb_rule_names would dangle).
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            xkb_context_unref(context)
            throw TestCompositorError("test compositor: xkbcommon could not compile the default keymap (is xkb-data installed?)")
        }
        self.context = context
        self.keymap = keymap
        state = xkb_state_new(keymap)
        let string = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1)!
        text = Array(UnsafeRawBufferPointer(start: string, count: strlen(string) + 1))
        free(string)
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// The evdev key code (xkb keycode - 8) of the first key that produces `keysym` at its first
    /// shift level (then at any level), or nil.
    func keycode(forKeysym keysym: UInt32) -> UInt32? {
        let range = xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap)
        for level: UInt32 in 0..<4 {
            for code in range where produces(code, level, keysym) { return code - 8 }
        }
        return nil
    }

    private func produces(_ code: UInt32, _ level: UInt32, _ keysym: UInt32) -> Bool {
        var syms: UnsafePointer<xkb_keysym_t>?
        let n = xkb_keymap_key_get_syms_by_level(keymap, code, 0, level, &syms)
        return n > 0 && (0..<Int(n)).contains { syms![$0] == keysym }
    }

    /// The keysym called `name` (e.g. "Right", "Page_Up", "a"), or nil.
    static func keysym(named name: String) -> UInt32? {
        let sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        return sym == 0 ? nil : sym
    }

    /// The modifier mask bit of a modifier name ("Shift", "Control", "Mod1", "Lock", ...), or nil.
    func modifierMask(_ name: String) -> UInt32? {
        let index = xkb_keymap_mod_get_index(keymap, name)
        return index == XKB_MOD_INVALID ? nil : 1 << index
    }

    /// Feeds a key press or release to the xkb state; returns the new modifiers when they changed.
    func update(key evdevCode: UInt32, pressed: Bool) -> KeyboardModifiers? {
        let changed = xkb_state_update_key(state, evdevCode + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        return changed.rawValue == 0 ? nil : modifiers
    }

    var modifiers: KeyboardModifiers {
        KeyboardModifiers(
            depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
            latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
            locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
            group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }
}
