// Ready-made situations for the compositor's self-tests: a raw client with a mapped toplevel.
import CWaylandClient
import CWaylandProtocols
import TestCompositor

/// A raw client whose toplevel has acknowledged its first configure and shows one buffer.
struct MappedToplevel {
    let client: RawWaylandClient
    let compositor: OpaquePointer
    let shm: OpaquePointer
    let surface: OpaquePointer
    let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    let id: SurfaceID
    let buffer: RawBuffer

    /// Connects, maps a `width`×`height` toplevel filled with `color`, and waits (by roundtrip)
    /// until the compositor has recorded the commit.
    init(_ compositor: TestCompositor, width: Int32 = 64, height: Int32 = 48, color: UInt32 = 0xff20_4060,
         prepare: (RawWaylandClient, OpaquePointer) throws -> Void = { _, _ in }) throws {
        client = try RawWaylandClient(socketPath: compositor.socketPath)
        self.compositor = try client.bind("wl_compositor", wlslider_wl_compositor_interface())
        shm = try client.bind("wl_shm", wlslider_wl_shm_interface())
        let wmBase = try client.bind("xdg_wm_base", wlslider_xdg_wm_base_interface())
        surface = client.createSurface(self.compositor)
        (xdgSurface, toplevel) = client.makeToplevel(wmBase, surface)
        try prepare(client, surface)
        wl_surface_commit(surface)
        try client.roundtrip()
        guard let serial = client.lastConfigureSerial else { throw RawClientError("no configure after the initial commit") }
        xdg_surface_ack_configure(xdgSurface, serial)
        buffer = try client.makeBuffer(shm, width: width, height: height, color: color)
        client.show(buffer, on: surface)
        try client.roundtrip()
        guard let newest = compositor.state.surfaces(withRole: .toplevel).last else { throw RawClientError("the compositor saw no toplevel") }
        id = newest.id
    }
}
