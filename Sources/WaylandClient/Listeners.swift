// Every C listener table of this module, in one place. Each entry is a capture-less @convention(c)
// closure that turns the `data` pointer back into the Swift object that registered it and calls a
// plain Swift method there; no decision is made here.
//
// Rules (docs/swift-and-libwayland.md): every member of a listener is filled, because libwayland aborts on an
// event whose slot is NULL; the tables live on the heap for the whole process (libwayland keeps the
// pointer inside each proxy), allocated once and never written again, hence `nonisolated(unsafe)`;
// objects are passed unretained: each owner destroys its proxy before it goes away.
internal import CLibdecor
internal import CWaylandClient
internal import CWaylandProtocols

/// The Swift object behind a listener's `data` pointer.
@inline(__always)
private func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, _: T.Type) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

/// A copy of `table` on the heap that is never freed.
private func permanent<T>(_ table: T) -> UnsafePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: table)
    return UnsafePointer(pointer)
}

private func string(_ text: UnsafePointer<CChar>?) -> String {
    text.map { String(cString: $0) } ?? ""
}

private func axis(_ raw: UInt32) -> PointerAxis {
    raw == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue ? .horizontal : .vertical
}

enum Listeners {
    nonisolated(unsafe) static let registry = permanent(wl_registry_listener(
        global: { data, _, name, interface, version in
            owner(data, Registry.self).global(name: name, interface: string(interface), version: version)
        },
        global_remove: { data, _, name in owner(data, Registry.self).globalRemove(name: name) }
    ))

    nonisolated(unsafe) static let wmBase = permanent(xdg_wm_base_listener(
        ping: { data, _, serial in owner(data, WaylandConnection.self).ping(serial: serial) }
    ))

    nonisolated(unsafe) static let output = permanent(wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { data, _, flags, _, _, refresh in owner(data, Output.self).modeEvent(flags: flags, refresh: refresh) },
        done: { data, _ in owner(data, Output.self).done() },
        scale: { data, _, factor in owner(data, Output.self).scaleEvent(factor) },
        name: { data, _, name in owner(data, Output.self).nameEvent(string(name)) },
        description: { _, _, _ in }
    ))

    nonisolated(unsafe) static let seat = permanent(wl_seat_listener(
        capabilities: { data, _, capabilities in owner(data, Seat.self).capabilitiesEvent(capabilities) },
        name: { data, _, name in owner(data, Seat.self).nameEvent(string(name)) }
    ))

    nonisolated(unsafe) static let pointer = permanent(wl_pointer_listener(
        enter: { data, _, serial, surface, x, y in
            owner(data, Pointer.self).enter(serial: serial, surface: surface,
                                            x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        leave: { data, _, _, surface in owner(data, Pointer.self).leave(surface: surface) },
        motion: { data, _, time, x, y in
            owner(data, Pointer.self).motion(time: time, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        button: { data, _, _, time, button, state in
            owner(data, Pointer.self).button(time: time, button: button,
                                             pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
        },
        axis: { data, _, time, which, value in
            owner(data, Pointer.self).axis(time: time, axis: axis(which), pixels: wl_fixed_to_double(value))
        },
        frame: { data, _ in owner(data, Pointer.self).frame() },
        axis_source: { data, _, source in owner(data, Pointer.self).axisSource(source) },
        axis_stop: { data, _, time, which in owner(data, Pointer.self).axisStop(time: time, axis: axis(which)) },
        axis_discrete: { data, _, which, steps in
            owner(data, Pointer.self).axisDiscrete(axis: axis(which), steps: steps)
        },
        axis_value120: { data, _, which, value in
            owner(data, Pointer.self).axisValue120(axis: axis(which), value: value)
        }
    ))

    nonisolated(unsafe) static let keyboard = permanent(wl_keyboard_listener(
        keymap: { data, _, format, fd, size in owner(data, Keyboard.self).keymap(format: format, fd: fd, size: size) },
        enter: { data, _, _, surface, _ in owner(data, Keyboard.self).enter(surface: surface) },
        leave: { data, _, _, surface in owner(data, Keyboard.self).leave(surface: surface) },
        key: { data, _, _, time, key, state in
            owner(data, Keyboard.self).key(time: time, code: key,
                                           pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            owner(data, Keyboard.self).modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        },
        repeat_info: { data, _, rate, delay in owner(data, Keyboard.self).repeatInfo(rate: rate, delay: delay) }
    ))

    nonisolated(unsafe) static let touch = permanent(wl_touch_listener(
        down: { data, _, _, time, surface, id, x, y in
            owner(data, Touch.self).down(time: time, surface: surface, id: id,
                                         x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        up: { data, _, _, time, id in owner(data, Touch.self).up(time: time, id: id) },
        motion: { data, _, time, id, x, y in
            owner(data, Touch.self).motion(time: time, id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        frame: { data, _ in owner(data, Touch.self).frame() },
        cancel: { data, _ in owner(data, Touch.self).cancel() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }
    ))

    nonisolated(unsafe) static let surface = permanent(wl_surface_listener(
        enter: { data, _, output in owner(data, SliderSurface.self).outputEntered(output) },
        leave: { data, _, output in owner(data, SliderSurface.self).outputLeft(output) }
    ))

    nonisolated(unsafe) static let syncCallback = permanent(wl_callback_listener(
        done: { data, _, _ in owner(data, RoundtripWait.self).syncDone() }
    ))

    nonisolated(unsafe) static let fractionalScale = permanent(wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in owner(data, SliderSurface.self).preferredScale(scale) }
    ))

    nonisolated(unsafe) static let xdgSurface = permanent(xdg_surface_listener(
        configure: { data, _, serial in owner(data, Toplevel.self).surfaceConfigure(serial: serial) }
    ))

    nonisolated(unsafe) static let xdgToplevel = permanent(xdg_toplevel_listener(
        configure: { data, _, width, height, _ in owner(data, Toplevel.self).configure(width: width, height: height) },
        close: { data, _ in owner(data, Toplevel.self).close() },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }
    ))

    nonisolated(unsafe) static let toplevelDecoration = permanent(zxdg_toplevel_decoration_v1_listener(
        configure: { data, _, mode in owner(data, Toplevel.self).decorationConfigure(mode: mode) }
    ))

    /// libdecor's frame callbacks (its reserved slots stay NULL: libdecor never calls them).
    nonisolated(unsafe) static let libdecorFrame: UnsafePointer<wlslider_libdecor_frame_interface> = {
        var table = wlslider_libdecor_frame_interface()
        table.configure = { _, configuration, data in owner(data, LibdecorToplevel.self).configure(configuration) }
        table.close = { _, data in owner(data, LibdecorToplevel.self).close() }
        table.commit = { _, data in owner(data, LibdecorToplevel.self).commit() }
        table.dismiss_popup = { _, _, _ in }
        return permanent(table)
    }()

    nonisolated(unsafe) static let layerSurface = permanent(zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, width, height in
            owner(data, LayerSurface.self).configure(serial: serial, width: width, height: height)
        },
        closed: { data, _ in owner(data, LayerSurface.self).closed() }
    ))
}

/// The events of every animated frame, `wl_callback.done` of the frame callback and
/// `wl_buffer.release`, come through dispatchers instead of listener tables: libwayland hands a
/// dispatcher the event's decoded arguments as they are, where a listener is called through libffi
/// (a call interface prepared and made for every event). Each of these interfaces has one event,
/// opcode 0; the dispatcher's first argument is the object registered with it, unretained.
enum Dispatchers {
    /// `wl_callback.done(time)` of a frame callback, for the `SliderSurface` that asked for it.
    static let frameCallback: wl_dispatcher_func_t = { object, _, opcode, _, arguments in
        guard opcode == 0, let object, let arguments else { return 0 }
        Unmanaged<SliderSurface>.fromOpaque(object).takeUnretainedValue().frameDone(time: arguments[0].u)
        return 0
    }

    /// `wl_buffer.release`, for its `ShmBuffer`.
    static let buffer: wl_dispatcher_func_t = { object, _, opcode, _, _ in
        guard opcode == 0, let object else { return 0 }
        Unmanaged<ShmBuffer>.fromOpaque(object).takeUnretainedValue().release()
        return 0
    }
}
