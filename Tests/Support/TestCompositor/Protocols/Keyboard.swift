// wl_keyboard: the keymap (a memfd with the xkb text), repeat_info, focus, keys and modifiers.
// Key presses go through the xkb state, so pressing Shift sends the modifiers a real compositor
// would; a test can also send any modifiers directly.
internal import CWaylandServer
internal import CWaylandServerProtocols
import Glibc

/// A key to press: an evdev key code, or an xkb keysym looked up in the compositor's keymap.
public enum Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A Linux evdev key code, as `wl_keyboard.key` carries it (e.g. 106 for KEY_RIGHT).
    case code(UInt32)
    /// An xkb keysym name, e.g. `"Right"`, `"Page_Up"`, `"Home"`, `"a"`.
    case keysym(String)
    public init(stringLiteral name: String) { self = .keysym(name) }
    public var description: String {
        switch self {
        case .code(let c): "key code \(c)"
        case .keysym(let name): "keysym \(name)"
        }
    }
}

extension Server {
    func keyboardKeymap() throws -> (Keymap, Int32) {
        if let keymap, let fd = keymapFD { return (keymap, fd) }
        let map = try Keymap()
        let fd = wlslider_server_memfd_create("test-compositor-\(instance)-keymap")
        guard fd >= 0 else { throw TestCompositorError.system("memfd_create for the keymap") }
        ledger.opened(fd, "keymap memfd")
        let written = map.text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == map.text.count else { throw TestCompositorError.system("writing the \(map.text.count)-byte keymap") }
        keymap = map
        keymapFD = fd
        return (map, fd)
    }

    /// A new wl_keyboard gets the keymap, repeat info, and enter when its client has focus.
    func keyboardCreated(_ keyboard: DeviceObject) {
        guard let (map, fd) = try? keyboardKeymap() else {
            return postError(keyboard.resource, WL_DISPLAY_ERROR_IMPLEMENTATION.rawValue, "test compositor could not build a keymap")
        }
        wl_keyboard_send_keymap(keyboard.resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(map.text.count))
        if keyboard.version >= 4 {
            wl_keyboard_send_repeat_info(keyboard.resource, configuration.keyRepeat.rate, configuration.keyRepeat.delay)
        }
        if let focus = seat.keyboardFocus, let surface = surfaces[focus], surface.client == keyboard.client {
            sendEnter(keyboard, surface, nextSerial(), map.modifiers)
        }
    }

    func keyboardEnter(_ id: SurfaceID) throws -> UInt32 {
        let surface = try self.surface(id)
        if let old = seat.keyboardFocus, old != id { _ = try? keyboardLeave() }
        let (map, _) = try keyboardKeymap()
        let serial = nextSerial()
        try deliver(.keyboard, to: surface.client, event: "enter") { sendEnter($0, surface, serial, map.modifiers) }
        seat.keyboardFocus = id
        return serial
    }

    private func sendEnter(_ keyboard: DeviceObject, _ surface: SurfaceObject, _ serial: UInt32, _ mods: KeyboardModifiers) {
        var keys = wl_array()
        wl_array_init(&keys)
        for key in seat.pressedKeys { wl_array_add(&keys, 4)?.storeBytes(of: key, as: UInt32.self) }
        wl_keyboard_send_enter(keyboard.resource, serial, surface.resource, &keys)
        wl_array_release(&keys)
        wl_keyboard_send_modifiers(keyboard.resource, nextSerial(), mods.depressed, mods.latched, mods.locked, mods.group)
    }

    func keyboardLeave() throws -> UInt32 {
        guard let id = seat.keyboardFocus else { throw TestCompositorError("test compositor: wl_keyboard.leave: no surface has keyboard focus") }
        seat.keyboardFocus = nil
        let surface = try self.surface(id)
        let serial = nextSerial()
        try deliver(.keyboard, to: surface.client, event: "leave") { wl_keyboard_send_leave($0.resource, serial, surface.resource) }
        return serial
    }

    /// Presses or releases a key on the focused surface, then sends modifiers if they changed.
    func key(_ key: Key, pressed: Bool) throws -> UInt32 {
        let client = try keyboardFocusClient("key")
        let (map, _) = try keyboardKeymap()
        let code = try evdevCode(key, map)
        let serial = nextSerial()
        let time = state.time
        let keyState = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        try deliver(.keyboard, to: client, event: "key") { wl_keyboard_send_key($0.resource, serial, time, code, keyState.rawValue) }
        if pressed { seat.pressedKeys.append(code) } else { seat.pressedKeys.removeAll { $0 == code } }
        // A code no xkb keycode can name (evdev + 8 past UInt32.max) is sent but not fed to xkb.
        if code <= UInt32.max - 8, let mods = map.update(key: code, pressed: pressed) { try sendModifiers(mods) }
        return serial
    }

    /// Sends `wl_keyboard.keymap` to every wl_keyboard: a new memfd holding `contents`, announced
    /// as `announcedSize` bytes (default: the contents' length) in `format`; nil contents resend
    /// the compositor's own keymap. Keys are still looked up in the compositor's own keymap.
    func sendKeymap(_ contents: [UInt8]?, announcedSize: UInt32?, format: UInt32) throws {
        let bytes = try contents ?? keyboardKeymap().0.text
        let fd = wlslider_server_memfd_create("test-compositor-\(instance)-keymap-\(sentKeymaps.next())")
        guard fd >= 0 else { throw TestCompositorError.system("memfd_create for a keymap") }
        ledger.opened(fd, "sent keymap memfd")
        defer { ledger.close(fd) }  // libwayland sends a duplicate
        let written = bytes.withUnsafeBytes { bytes.isEmpty ? 0 : write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestCompositorError.system("writing a \(bytes.count)-byte keymap") }
        let size = announcedSize ?? UInt32(bytes.count)
        for keyboard in seat.devices where keyboard.kind == .keyboard {
            wl_keyboard_send_keymap(keyboard.resource, format, fd, size)
        }
    }

    func sendModifiers(_ mods: KeyboardModifiers) throws {
        let client = try keyboardFocusClient("modifiers")
        let serial = nextSerial()
        try deliver(.keyboard, to: client, event: "modifiers") {
            wl_keyboard_send_modifiers($0.resource, serial, mods.depressed, mods.latched, mods.locked, mods.group)
        }
    }

    /// Changes `repeat_info` and sends it to every wl_keyboard of version 4 or later.
    func setKeyRepeat(rate: Int32, delay: Int32) {
        configuration.keyRepeat = (rate, delay)
        for keyboard in seat.devices where keyboard.kind == .keyboard && keyboard.version >= 4 {
            wl_keyboard_send_repeat_info(keyboard.resource, rate, delay)
        }
    }

    func evdevCode(_ key: Key, _ map: Keymap) throws -> UInt32 {
        switch key {
        case .code(let code): return code
        case .keysym(let name):
            guard let sym = Keymap.keysym(named: name) else { throw TestCompositorError("test compositor: \"\(name)\" is not an xkb keysym name") }
            guard let code = map.keycode(forKeysym: sym) else { throw TestCompositorError("test compositor: no key of the keymap produces keysym \(name)") }
            return code
        }
    }

    private func keyboardFocusClient(_ event: String) throws -> ClientID {
        guard let id = seat.keyboardFocus, let surface = surfaces[id] else {
            throw TestCompositorError("test compositor: wl_keyboard.\(event): no surface has keyboard focus (call keyboard.enter first)")
        }
        return surface.client
    }
}
