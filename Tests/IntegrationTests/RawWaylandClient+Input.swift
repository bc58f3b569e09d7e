// Seat, output and scale listeners of the raw test client: every event is logged as text, so a
// test compares what arrived with what the compositor was told to send.
import CWaylandClient
import CWaylandProtocols
import Glibc

extension RawWaylandClient {
    /// Binds the seat and logs capabilities; devices are created by the test with the get_ calls.
    func bindSeat(version: UInt32? = nil) throws -> OpaquePointer {
        let seat = try bind("wl_seat", wlslider_wl_seat_interface(), version: version)
        listen(seat, wl_seat_listener(
            capabilities: { data, _, caps in RawWaylandClient.from(data).log("wl_seat.capabilities \(caps)") },
            name: { data, _, name in RawWaylandClient.from(data).log("wl_seat.name \(String(cString: name!))") }))
        return seat
    }

    func getTouch(_ seat: OpaquePointer) -> OpaquePointer {
        let touch = wl_seat_get_touch(seat)!
        listen(touch, wl_touch_listener(
            down: { data, _, _, time, _, id, x, y in
                RawWaylandClient.from(data).log("wl_touch.down \(time) \(id) \(wl_fixed_to_double(x)) \(wl_fixed_to_double(y))")
            },
            up: { data, _, _, time, id in RawWaylandClient.from(data).log("wl_touch.up \(time) \(id)") },
            motion: { data, _, time, id, x, y in
                RawWaylandClient.from(data).log("wl_touch.motion \(time) \(id) \(wl_fixed_to_double(x)) \(wl_fixed_to_double(y))")
            },
            frame: { data, _ in RawWaylandClient.from(data).log("wl_touch.frame") },
            cancel: { data, _ in RawWaylandClient.from(data).log("wl_touch.cancel") },
            shape: { data, _, id, major, minor in
                RawWaylandClient.from(data).log("wl_touch.shape \(id) \(wl_fixed_to_double(major)) \(wl_fixed_to_double(minor))")
            },
            orientation: { data, _, id, o in RawWaylandClient.from(data).log("wl_touch.orientation \(id) \(wl_fixed_to_double(o))") }))
        return touch
    }

    func getPointer(_ seat: OpaquePointer) -> OpaquePointer {
        let pointer = wl_seat_get_pointer(seat)!
        listen(pointer, wl_pointer_listener(
            enter: { data, _, _, _, x, y in RawWaylandClient.from(data).log("wl_pointer.enter \(wl_fixed_to_double(x)) \(wl_fixed_to_double(y))") },
            leave: { data, _, _, _ in RawWaylandClient.from(data).log("wl_pointer.leave") },
            motion: { data, _, time, x, y in RawWaylandClient.from(data).log("wl_pointer.motion \(time) \(wl_fixed_to_double(x)) \(wl_fixed_to_double(y))") },
            button: { data, _, _, time, button, state in RawWaylandClient.from(data).log("wl_pointer.button \(time) \(button) \(state)") },
            axis: { data, _, time, axis, value in RawWaylandClient.from(data).log("wl_pointer.axis \(time) \(axis) \(wl_fixed_to_double(value))") },
            frame: { data, _ in RawWaylandClient.from(data).log("wl_pointer.frame") },
            axis_source: { data, _, source in RawWaylandClient.from(data).log("wl_pointer.axis_source \(source)") },
            axis_stop: { data, _, time, axis in RawWaylandClient.from(data).log("wl_pointer.axis_stop \(time) \(axis)") },
            axis_discrete: { data, _, axis, steps in RawWaylandClient.from(data).log("wl_pointer.axis_discrete \(axis) \(steps)") },
            axis_value120: { data, _, axis, value in RawWaylandClient.from(data).log("wl_pointer.axis_value120 \(axis) \(value)") }))
        return pointer
    }

    /// The keymap is read from its fd (mmap, as clients must) and kept in ``keymap``.
    func getKeyboard(_ seat: OpaquePointer) -> OpaquePointer {
        let keyboard = wl_seat_get_keyboard(seat)!
        listen(keyboard, wl_keyboard_listener(
            keymap: { data, _, format, fd, size in
                let client = RawWaylandClient.from(data)
                if let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED {
                    client.keymap = (format, String(cString: map.assumingMemoryBound(to: CChar.self)))
                    munmap(map, Int(size))
                }
                close(fd)
                client.log("wl_keyboard.keymap \(format) \(size)")
            },
            enter: { data, _, _, _, keys in RawWaylandClient.from(data).log("wl_keyboard.enter \(keys!.pointee.size / 4)") },
            leave: { data, _, _, _ in RawWaylandClient.from(data).log("wl_keyboard.leave") },
            key: { data, _, _, time, key, state in RawWaylandClient.from(data).log("wl_keyboard.key \(time) \(key) \(state)") },
            modifiers: { data, _, _, depressed, latched, locked, group in
                RawWaylandClient.from(data).log("wl_keyboard.modifiers \(depressed) \(latched) \(locked) \(group)")
            },
            repeat_info: { data, _, rate, delay in RawWaylandClient.from(data).log("wl_keyboard.repeat_info \(rate) \(delay)") }))
        return keyboard
    }

    func bindOutput() throws -> OpaquePointer {
        let output = try bind("wl_output", wlslider_wl_output_interface())
        listen(output, wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { data, _, _, w, h, refresh in RawWaylandClient.from(data).log("wl_output.mode \(w) \(h) \(refresh)") },
            done: { data, _ in RawWaylandClient.from(data).log("wl_output.done") },
            scale: { data, _, scale in RawWaylandClient.from(data).log("wl_output.scale \(scale)") },
            name: { data, _, name in RawWaylandClient.from(data).log("wl_output.name \(String(cString: name!))") },
            description: { _, _, _ in }))
        return output
    }

    func getFractionalScale(_ manager: OpaquePointer, _ surface: OpaquePointer) -> OpaquePointer {
        let scale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)!
        listen(scale, wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
            RawWaylandClient.from(data).log("wp_fractional_scale_v1.preferred_scale \(scale)")
        }))
        return scale
    }
}
