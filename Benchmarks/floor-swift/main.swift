// The floor client (Benchmarks/floor-client/floor.c) written in Swift: the same 320x48
// xdg_toplevel, two shm buffers in one memfd pool, and on every frame callback one 48x48 square of
// the free buffer, attach, damage_buffer, frame, commit. Built with wlslider's release flags, it
// is what the language and its runtime cost on a frame before any of wlslider's own work:
// `wlslider-bench frames --compare` puts it between the C floor and wlslider.
//
// Runs until SIGINT/SIGTERM (exit 0), like the C floor.
import CWaylandClient
import CWaylandProtocols
import Glibc
import Posix

let width: Int32 = 320, height: Int32 = 48, square: Int32 = 48
let stride = width * 4, size = stride * height

/// One shm buffer and whether the compositor holds it.
final class Buffer {
    let proxy: OpaquePointer
    let pixels: UnsafeMutablePointer<UInt32>
    var busy = false
    init(proxy: OpaquePointer, pixels: UnsafeMutablePointer<UInt32>) {
        self.proxy = proxy
        self.pixels = pixels
    }
}

/// The client's state; C listeners reach it through their `data` pointer.
final class Floor {
    var compositor: OpaquePointer?
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    var surface: OpaquePointer?
    var buffers: [Buffer] = []
    var configured = false
    var position: Int32 = 0

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ data: UnsafeMutableRawPointer?) -> Floor { Unmanaged<Floor>.fromOpaque(data!).takeUnretainedValue() }

    func global(_ registry: OpaquePointer?, _ name: UInt32, _ interface: String) {
        switch interface {
        case "wl_compositor": compositor = OpaquePointer(wl_registry_bind(registry, name, wlslider_wl_compositor_interface(), 4))
        case "wl_shm": shm = OpaquePointer(wl_registry_bind(registry, name, wlslider_wl_shm_interface(), 1))
        case "xdg_wm_base": wmBase = OpaquePointer(wl_registry_bind(registry, name, wlslider_xdg_wm_base_interface(), 1))
        default: break
        }
    }

    /// One frame: the square at the new position into the free buffer, damage it, ask for the next frame.
    func draw() {
        guard let surface, let buffer = buffers.first(where: { !$0.busy }) else { return }
        position = (position + 1) % (width - square)
        for y in 0..<square {
            let row = buffer.pixels + Int(y * width + position)
            for x in 0..<square { row[Int(x)] = 0xff00_0000 | UInt32(x * 5) << 8 | UInt32(y * 5) }
        }
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, position, 0, square, square)
        let callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, frameListener, opaque)
        wl_surface_commit(surface)
        buffer.busy = true
    }
}

/// A copy of `table` on the heap that is never freed (libwayland keeps the pointer).
func permanent<T>(_ table: T) -> UnsafePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: table)
    return UnsafePointer(pointer)
}

nonisolated(unsafe) let registryListener = permanent(wl_registry_listener(
    global: { data, registry, name, interface, _ in Floor.from(data).global(registry, name, String(cString: interface!)) },
    global_remove: { _, _, _ in }
))
nonisolated(unsafe) let wmBaseListener = permanent(xdg_wm_base_listener(ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))
nonisolated(unsafe) let bufferListener = permanent(wl_buffer_listener(release: { data, _ in
    Unmanaged<Buffer>.fromOpaque(data!).takeUnretainedValue().busy = false
}))
nonisolated(unsafe) let frameListener = permanent(wl_callback_listener(done: { data, callback, _ in
    wl_callback_destroy(callback)
    Floor.from(data).draw()
}))
nonisolated(unsafe) let xdgSurfaceListener = permanent(xdg_surface_listener(configure: { data, xdgSurface, serial in
    xdg_surface_ack_configure(xdgSurface, serial)
    let floor = Floor.from(data)
    if !floor.configured {
        floor.configured = true
        floor.draw()
    }
}))
nonisolated(unsafe) let toplevelListener = permanent(xdg_toplevel_listener(
    configure: { _, _, _, _, _ in }, close: { _, _ in running = 0 }, configure_bounds: { _, _, _, _ in },
    wm_capabilities: { _, _, _ in }
))

func fail(_ message: String) -> Never {
    let line = "floor-swift: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

nonisolated(unsafe) var running: sig_atomic_t = 1
signal(SIGINT) { _ in running = 0 }
signal(SIGTERM) { _ in running = 0 }

guard let display = wl_display_connect(nil) else { fail("cannot connect: \(String(cString: strerror(errno)))") }
let floor = Floor()
let registry = wl_display_get_registry(display)
wl_registry_add_listener(registry, registryListener, floor.opaque)
wl_display_roundtrip(display)
guard let compositor = floor.compositor, let shm = floor.shm, let wmBase = floor.wmBase else {
    fail("missing wl_compositor, wl_shm or xdg_wm_base")
}
xdg_wm_base_add_listener(wmBase, wmBaseListener, nil)

/// The two buffers, in one memfd pool.
func makeBuffers(shm: OpaquePointer) -> [Buffer] {
    let file: FileDescriptor, memory: UnsafeMutableRawPointer
    do throws(Errno) {
        file = try FileDescriptor.memoryFile(name: "floor-swift")
        try file.truncate(to: Int(2 * size))
        memory = try file.mapShared(size: Int(2 * size))
    } catch {
        fail("shared memory: \(error)")
    }
    memset(memory, 0x20, Int(2 * size))
    let pool = wl_shm_create_pool(shm, file.rawValue, 2 * size)
    let buffers = (0..<2).map { index in
        let proxy = wl_shm_pool_create_buffer(pool, Int32(index) * size, width, height, stride, WL_SHM_FORMAT_ARGB8888.rawValue)!
        let buffer = Buffer(proxy: proxy, pixels: (memory + index * Int(size)).assumingMemoryBound(to: UInt32.self))
        wl_buffer_add_listener(proxy, bufferListener, Unmanaged.passUnretained(buffer).toOpaque())
        return buffer
    }
    wl_shm_pool_destroy(pool)
    return buffers
}
floor.buffers = makeBuffers(shm: shm)

let surface = wl_compositor_create_surface(compositor)
floor.surface = surface
let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
xdg_surface_add_listener(xdgSurface, xdgSurfaceListener, floor.opaque)
let toplevel = xdg_surface_get_toplevel(xdgSurface)
xdg_toplevel_add_listener(toplevel, toplevelListener, nil)
xdg_toplevel_set_title(toplevel, "floor-swift")
wl_surface_commit(surface)

while running != 0 && wl_display_dispatch(display) != -1 {}
wl_display_disconnect(display)
exit(0)
