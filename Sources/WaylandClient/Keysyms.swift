// Keysym values the app may match against `KeyboardEvent.key(keysym:...)`, taken from xkbcommon's
// header (constants only: reading them loads nothing).
internal import CXKBCommon

/// XKB keysyms (from xkbcommon-keysyms.h) for the keys a slider understands.
public enum Keysym {
    /// Left arrow.
    public static let left = UInt32(XKB_KEY_Left)
    /// Right arrow.
    public static let right = UInt32(XKB_KEY_Right)
    /// Up arrow.
    public static let up = UInt32(XKB_KEY_Up)
    /// Down arrow.
    public static let down = UInt32(XKB_KEY_Down)
    /// Page Up (XKB "Prior").
    public static let pageUp = UInt32(XKB_KEY_Page_Up)
    /// Page Down (XKB "Next").
    public static let pageDown = UInt32(XKB_KEY_Page_Down)
    /// Home.
    public static let home = UInt32(XKB_KEY_Home)
    /// End.
    public static let end = UInt32(XKB_KEY_End)
    /// Keypad arrows, Page Up/Down, Home and End (NumLock off).
    public static let keypadLeft = UInt32(XKB_KEY_KP_Left)
    public static let keypadRight = UInt32(XKB_KEY_KP_Right)
    public static let keypadUp = UInt32(XKB_KEY_KP_Up)
    public static let keypadDown = UInt32(XKB_KEY_KP_Down)
    public static let keypadPageUp = UInt32(XKB_KEY_KP_Page_Up)
    public static let keypadPageDown = UInt32(XKB_KEY_KP_Page_Down)
    public static let keypadHome = UInt32(XKB_KEY_KP_Home)
    public static let keypadEnd = UInt32(XKB_KEY_KP_End)
    /// Return.
    public static let `return` = UInt32(XKB_KEY_Return)
    /// Space.
    public static let space = UInt32(XKB_KEY_space)
    /// +.
    public static let plus = UInt32(XKB_KEY_plus)
    /// -.
    public static let minus = UInt32(XKB_KEY_minus)
    /// q.
    public static let q = UInt32(XKB_KEY_q)

    /// The keysym's name, e.g. "Left" or "Page_Up" ("" when unknown, or without libxkbcommon), for
    /// logs and tests. Loads libxkbcommon if no key has yet.
    public static func name(_ keysym: UInt32) -> String {
        guard XKBCommonLibrary.failure == nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = wlslider_xkb_keysym_get_name(keysym, &buffer, buffer.count)
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
