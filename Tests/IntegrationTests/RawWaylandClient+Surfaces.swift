// Surfaces, shells and shm buffers for the raw test client.
import CWaylandClient
import CWaylandProtocols
import Glibc
import TestCompositor

/// A shm buffer the raw client owns: its pixels are writable through ``pixels``.
final class RawBuffer {
    /// Kept so the connection outlives the buffer: wl_buffer_destroy after wl_display_disconnect
    /// would touch freed memory.
    let client: RawWaylandClient
    let buffer: OpaquePointer
    let pixels: UnsafeMutableBufferPointer<UInt32>
    let width: Int32, height: Int32
    var isBusy = false
    var releases = 0

    init(client: RawWaylandClient, buffer: OpaquePointer, pixels: UnsafeMutableBufferPointer<UInt32>, width: Int32, height: Int32) {
        self.client = client
        self.buffer = buffer
        self.pixels = pixels
        self.width = width
        self.height = height
    }

    func fill(_ color: UInt32) { pixels.update(repeating: color) }

    deinit {
        wl_buffer_destroy(buffer)
        munmap(pixels.baseAddress, pixels.count * 4)
    }
}

extension RawWaylandClient {
    func createSurface(_ compositor: OpaquePointer) -> OpaquePointer {
        let surface = wl_compositor_create_surface(compositor)!
        listen(surface, wl_surface_listener(
            enter: { data, _, _ in RawWaylandClient.from(data).log("wl_surface.enter") },
            leave: { data, _, _ in RawWaylandClient.from(data).log("wl_surface.leave") }))
        return surface
    }

    /// xdg_surface + xdg_toplevel; configure events are logged and remembered, not acked.
    func makeToplevel(_ wmBase: OpaquePointer, _ surface: OpaquePointer) -> (xdg: OpaquePointer, toplevel: OpaquePointer) {
        listen(wmBase, xdg_wm_base_listener(ping: { data, base, serial in
            RawWaylandClient.from(data).log("xdg_wm_base.ping \(serial)")
            xdg_wm_base_pong(base, serial)
        }))
        let xdg = xdg_wm_base_get_xdg_surface(wmBase, surface)!
        listen(xdg, xdg_surface_listener(configure: { data, _, serial in
            let client = RawWaylandClient.from(data)
            client.lastConfigureSerial = serial
            client.log("xdg_surface.configure \(serial)")
        }))
        let toplevel = xdg_surface_get_toplevel(xdg)!
        listen(toplevel, xdg_toplevel_listener(
            configure: { data, _, w, h, states in
                let flags = UnsafeRawBufferPointer(start: states!.pointee.data, count: states!.pointee.size).bindMemory(to: UInt32.self)
                RawWaylandClient.from(data).log("xdg_toplevel.configure \(w) \(h) \(Array(flags))")
            },
            close: { data, _ in RawWaylandClient.from(data).log("xdg_toplevel.close") },
            configure_bounds: { data, _, w, h in RawWaylandClient.from(data).log("xdg_toplevel.configure_bounds \(w) \(h)") },
            wm_capabilities: { data, _, _ in RawWaylandClient.from(data).log("xdg_toplevel.wm_capabilities") }))
        return (xdg, toplevel)
    }

    /// A layer surface; configure events are logged and remembered, not acked.
    func makeLayerSurface(_ shell: OpaquePointer, _ surface: OpaquePointer, layer: UInt32 = 2, namespace: String = "test") -> OpaquePointer {
        let layerSurface = zwlr_layer_shell_v1_get_layer_surface(shell, surface, nil, layer, namespace)!
        listen(layerSurface, zwlr_layer_surface_v1_listener(
            configure: { data, _, serial, w, h in
                let client = RawWaylandClient.from(data)
                client.lastConfigureSerial = serial
                client.log("zwlr_layer_surface_v1.configure \(serial) \(w) \(h)")
            },
            closed: { data, _ in RawWaylandClient.from(data).log("zwlr_layer_surface_v1.closed") }))
        return layerSurface
    }

    /// A `width`×`height` ARGB8888 buffer in its own memfd pool, filled with `color`.
    func makeBuffer(_ shm: OpaquePointer, width: Int32, height: Int32, color: UInt32 = 0xff20_4060) throws -> RawBuffer {
        let stride = width * 4, size = Int(stride * height)
        let fd = anonymousMemoryFile(named: "raw-client-buffer")
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw RawClientError("memfd for a \(size)-byte buffer: errno \(errno)") }
        defer { close(fd) }
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw RawClientError("mmap of \(size) bytes: errno \(errno)")
        }
        let pool = wl_shm_create_pool(shm, fd, Int32(size))!
        let buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888.rawValue)!
        wl_shm_pool_destroy(pool)
        let pixels = UnsafeMutableBufferPointer(start: memory.bindMemory(to: UInt32.self, capacity: size / 4), count: size / 4)
        let raw = RawBuffer(client: self, buffer: buffer, pixels: pixels, width: width, height: height)
        raw.fill(color)
        listen(buffer, wl_buffer_listener(release: { data, _ in RawWaylandClient.from(data).log("wl_buffer.release") }))
        // The log says a buffer was released; RawBuffer.isBusy is kept by the test itself.
        return raw
    }

    /// Requests a frame callback whose `done` is logged as "wl_callback.done <time>".
    func requestFrame(_ surface: OpaquePointer) {
        let callback = wl_surface_frame(surface)!
        listen(callback, wl_callback_listener(done: { data, callback, time in
            RawWaylandClient.from(data).log("wl_callback.done \(time)")
            wl_callback_destroy(callback)
        }))
    }

    /// attach + damage_buffer (whole buffer) + commit.
    func show(_ buffer: RawBuffer, on surface: OpaquePointer) {
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, buffer.width, buffer.height)
        wl_surface_commit(surface)
        buffer.isBusy = true
    }
}
