// Pointer, touch and keyboard events exactly as the test sends them (grouping, frames, missing
// frames), seat capabilities that come and go, and the clear errors for impossible input.
import CWaylandClient
import CWaylandProtocols
import Testing
import TestCompositor

@Suite("Test compositor: input")
struct TestCompositorInputTests {
    /// A mapped toplevel whose client has a seat with the devices asked for.
    private func setUp(_ compositor: TestCompositor, seatVersion: UInt32? = nil, pointer: Bool = false, touch: Bool = false, keyboard: Bool = false)
        throws -> (MappedToplevel, devices: [OpaquePointer])
    {
        let mapped = try MappedToplevel(compositor)
        let seat = try mapped.client.bindSeat(version: seatVersion)
        var devices: [OpaquePointer] = []
        if pointer { devices.append(mapped.client.getPointer(seat)) }
        if touch { devices.append(mapped.client.getTouch(seat)) }
        if keyboard { devices.append(mapped.client.getKeyboard(seat)) }
        try mapped.client.roundtrip()
        return (mapped, devices)
    }

    @Test("pointer events arrive exactly as grouped by the test, frames only where it sent them")
    func pointerGrouping() async throws {
        try await withTestCompositor { compositor in
            let (mapped, _) = try setUp(compositor, pointer: true)
            let mark = mapped.client.events.count
            try compositor.pointer.enter(mapped.id, x: 10.5, y: 20.25)
            try compositor.pointer.frame()
            try compositor.pointer.send([.motion(x: 11, y: 21.5), .button(.left, .pressed), .frame])
            try compositor.pointer.axis(.vertical, 7.5)  // no frame after it: allowed
            try compositor.pointer.axisStop(.vertical)
            try compositor.pointer.frame()
            try compositor.pointer.button(.left, .released)
            try compositor.pointer.leave()
            try mapped.client.roundtrip()
            #expect(mapped.client.events(since: mark) == [
                "wl_pointer.enter 10.5 20.25", "wl_pointer.frame",
                "wl_pointer.motion 1000 11.0 21.5", "wl_pointer.button 1000 272 1", "wl_pointer.frame",
                "wl_pointer.axis 1000 0 7.5", "wl_pointer.axis_stop 1000 0", "wl_pointer.frame",
                "wl_pointer.button 1000 272 0", "wl_pointer.leave",
            ])
        }
    }

    @Test("a wheel detent is value120 for wl_pointer 8 and axis_discrete for 5 to 7")
    func wheelByVersion() async throws {
        for (version, expected) in [(UInt32(8), "wl_pointer.axis_value120 0 240"), (5, "wl_pointer.axis_discrete 0 2")] {
            try await withTestCompositor { compositor in
                let (mapped, _) = try setUp(compositor, seatVersion: version, pointer: true)
                try compositor.pointer.enter(mapped.id, x: 1, y: 1)
                try mapped.client.roundtrip()
                let mark = mapped.client.events.count
                try compositor.advanceClock(by: 5)
                try compositor.pointer.wheel(steps: 2)
                try mapped.client.roundtrip()
                #expect(mapped.client.events(since: mark) == ["wl_pointer.axis_source 0", expected, "wl_pointer.axis 1005 0 30.0", "wl_pointer.frame"])
            }
        }
    }

    @Test("an event the client's wl_pointer version lacks is refused with the versions named")
    func pointerVersionTooLow() async throws {
        try await withTestCompositor { compositor in
            let (mapped, _) = try setUp(compositor, seatVersion: 4, pointer: true)
            try compositor.pointer.enter(mapped.id, x: 1, y: 1)
            let error = #expect(throws: TestCompositorError.self) { try compositor.pointer.frame() }
            #expect(error?.description.contains("wl_pointer.frame needs version 5") == true)
            #expect(error?.description.contains("version 4") == true)
            #expect(throws: TestCompositorError.self) { try compositor.pointer.axisValue120(.vertical, 120) }
        }
    }

    @Test("pointer events without focus are refused")
    func pointerNeedsFocus() async throws {
        try await withTestCompositor { compositor in
            _ = try setUp(compositor, pointer: true)
            let error = #expect(throws: TestCompositorError.self) { try compositor.pointer.motion(x: 1, y: 1) }
            #expect(error?.description.contains("no surface has pointer focus") == true)
        }
    }

    @Test("touch points carry ids and sub-pixel coordinates; up may come without frame; cancel ends all")
    func touchSequences() async throws {
        try await withTestCompositor { compositor in
            let (mapped, _) = try setUp(compositor, touch: true)
            let mark = mapped.client.events.count
            try compositor.touch.down(id: 0, on: mapped.id, x: 10.25, y: 5.5)
            try compositor.touch.frame()
            try compositor.touch.send([.down(id: 1, surface: mapped.id, x: 30, y: 6), .motion(id: 0, x: 12.75, y: 5.5), .frame])
            try compositor.touch.up(id: 1)  // no frame: as some weston versions do
            try compositor.touch.cancel()
            try mapped.client.roundtrip()
            #expect(mapped.client.events(since: mark) == [
                "wl_touch.down 1000 0 10.25 5.5", "wl_touch.frame",
                "wl_touch.down 1000 1 30.0 6.0", "wl_touch.motion 1000 0 12.75 5.5", "wl_touch.frame",
                "wl_touch.up 1000 1", "wl_touch.cancel",
            ])
            #expect(throws: TestCompositorError.self) { try compositor.touch.motion(id: 0, x: 1, y: 1) }
        }
    }

    @Test("automatic framing adds frames after each event, except after up when asked")
    func touchAutomaticFraming() async throws {
        var configuration = Configuration()
        configuration.inputFraming = .afterEachEventExceptTouchUp
        try await withTestCompositor(configuration) { compositor in
            let (mapped, _) = try setUp(compositor, touch: true)
            let mark = mapped.client.events.count
            try compositor.touch.down(on: mapped.id, x: 1, y: 2)
            try compositor.touch.motion(x: 3, y: 4)
            try compositor.touch.up()
            try mapped.client.roundtrip()
            #expect(mapped.client.events(since: mark) == [
                "wl_touch.down 1000 0 1.0 2.0", "wl_touch.frame", "wl_touch.motion 1000 0 3.0 4.0", "wl_touch.frame", "wl_touch.up 1000 0",
            ])
        }
    }

    @Test("the keyboard gets a real xkb keymap and repeat info; keys and modifiers follow xkb")
    func keyboard() async throws {
        var configuration = Configuration()
        configuration.keyRepeat = (rate: 33, delay: 250)
        try await withTestCompositor(configuration) { compositor in
            let (mapped, _) = try setUp(compositor, keyboard: true)
            let keymap = try #require(mapped.client.keymap)
            #expect(keymap.format == 1)
            #expect(keymap.text.contains("xkb_keymap") && keymap.text.contains("xkb_symbols") && keymap.text.contains("<RGHT>"))
            #expect(keymap.text == (try compositor.keyboard.keymapText()))
            #expect(mapped.client.events.contains("wl_keyboard.repeat_info 33 250"))
            let shift = try compositor.keyboard.modifierMask("Shift")
            let mark = mapped.client.events.count
            try compositor.keyboard.enter(mapped.id)
            try compositor.keyboard.tap("Right")
            try compositor.keyboard.press("Shift_L")
            try compositor.keyboard.press(.code(102))  // KEY_HOME
            try compositor.keyboard.release("Shift_L")
            try compositor.keyboard.setRepeat(rate: 0, delay: 0)
            try mapped.client.roundtrip()
            #expect(try compositor.keyboard.keycode("Right") == 106)
            #expect(try compositor.keyboard.keycode("Page_Up") == 104)
            #expect(mapped.client.events(since: mark) == [
                "wl_keyboard.enter 0", "wl_keyboard.modifiers 0 0 0 0",
                "wl_keyboard.key 1000 106 1", "wl_keyboard.key 1000 106 0",
                "wl_keyboard.key 1000 42 1", "wl_keyboard.modifiers \(shift) 0 0 0",
                "wl_keyboard.key 1000 102 1",
                "wl_keyboard.key 1000 42 0", "wl_keyboard.modifiers 0 0 0 0",
                "wl_keyboard.repeat_info 0 0",
            ])
            #expect(throws: TestCompositorError.self) { try compositor.keyboard.tap("NoSuchKeysym") }
        }
    }

    @Test("capabilities can be removed and added at any time, and input to a released device is refused")
    func capabilitiesChange() async throws {
        try await withTestCompositor { compositor in
            let (mapped, devices) = try setUp(compositor, touch: true)
            #expect(mapped.client.events.contains("wl_seat.capabilities 7"))
            try compositor.setSeatCapabilities([.pointer, .keyboard])
            try mapped.client.roundtrip()
            #expect(mapped.client.events.last == "wl_seat.capabilities 3")
            wl_touch_release(devices[0])
            try mapped.client.roundtrip()
            let error = #expect(throws: TestCompositorError.self) { try compositor.touch.down(on: mapped.id, x: 1, y: 1) }
            #expect(error?.description.contains("has no wl_touch") == true)
            try compositor.setSeatCapabilities(.all)
            try mapped.client.roundtrip()
            #expect(mapped.client.events.last == "wl_seat.capabilities 7")
            #expect(compositor.state.seatCapabilities == .all)
        }
    }

    @Test("a removed touch device takes its touch points with it: a new device starts with none down")
    func touchPointsGoWithTheDevice() async throws {
        try await withTestCompositor { compositor in
            let (mapped, devices) = try setUp(compositor, touch: true)
            try compositor.touch.down(id: 0, on: mapped.id, x: 5, y: 5)
            try compositor.setSeatCapabilities([.pointer, .keyboard])
            wl_touch_release(devices[0])
            try mapped.client.roundtrip()
            try compositor.setSeatCapabilities(.all)
            _ = mapped.client.getTouch(try mapped.client.bindSeat())
            try mapped.client.roundtrip()
            let mark = mapped.client.events.count
            try compositor.touch.down(id: 0, on: mapped.id, x: 6, y: 7)
            try mapped.client.roundtrip()
            #expect(mapped.client.events(since: mark) == ["wl_touch.down 1000 0 6.0 7.0"])
        }
    }

    @Test("asking for a device the seat never had is a protocol error")
    func missingCapability() async throws {
        var configuration = Configuration()
        configuration.seatCapabilities = [.pointer]
        try await withTestCompositor(configuration, allowProtocolErrors: true) { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            let seat = try client.bindSeat()
            _ = client.getTouch(seat)
            #expect(!client.roundtripSucceeds)
            #expect(compositor.state.protocolErrors.map { "\($0.interface) \($0.code)" } == ["wl_seat 0"])
        }
    }
}
