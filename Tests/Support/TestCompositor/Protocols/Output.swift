// wl_output (version 4): one output whose size and integer scale the test sets, and the
// wl_surface.enter/leave events that tell a client which output (hence which scale) it is on.
internal import CWaylandServer
internal import CWaylandServerProtocols

/// One bound `wl_output`.
final class OutputObject: ResourceObject {
    unowned let server: Server
    let resource: OpaquePointer
    let client: ClientID
    init(server: Server, resource: OpaquePointer, client: ClientID) {
        self.server = server
        self.resource = resource
        self.client = client
    }
    func resourceDestroyed() { server.outputs.removeAll { $0 === self } }
}

private let outputImplementation = implementationTable(wl_output_interface(
    release: { _, resource in wl_resource_destroy(resource) }
))

extension Server {
    func bindOutput(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_wl_output_interface(), version: Int32(version), id: id) else { return }
        let output = OutputObject(server: self, resource: resource, client: clientID(ofClient: client))
        bind(output, to: resource, implementation: outputImplementation)
        outputs.append(output)
        sendOutputDescription(output)
    }

    /// geometry, mode, scale, name, description, done: everything a client needs to know.
    private func sendOutputDescription(_ output: OutputObject) {
        let o = configuration.output
        let version = wl_resource_get_version(output.resource)
        wl_output_send_geometry(output.resource, 0, 0, o.physicalWidthMillimetres, o.physicalHeightMillimetres,
                                Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue), o.make, o.model, Int32(WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
        let flags = WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue
        wl_output_send_mode(output.resource, flags, o.width, o.height, o.refresh)
        if version >= 2 { wl_output_send_scale(output.resource, state.outputScale) }
        if version >= 4 {
            wl_output_send_name(output.resource, o.name)
            wl_output_send_description(output.resource, "\(o.make) \(o.model)")
        }
        if version >= 2 { wl_output_send_done(output.resource) }
    }

    /// Changes `wl_output.scale` and sends it (with `done`) to every bound output. Any int32 goes,
    /// 0 and negative ones included, as a broken compositor might send.
    func setOutputScale(_ scale: Int32) {
        state.outputScale = scale
        configuration.output.scale = scale
        outputs.forEach(sendOutputDescription)
    }

    /// Changes the output's mode and sends it to every bound output.
    func setOutputMode(width: Int32, height: Int32, refresh: Int32) {
        configuration.output.width = width
        configuration.output.height = height
        configuration.output.refresh = refresh
        outputs.forEach(sendOutputDescription)
    }

    /// Sends one `mode` event (and `done`) to every bound output without changing the configured
    /// mode: `current` false announces a mode the output could switch to.
    func sendOutputMode(width: Int32, height: Int32, refresh: Int32, current: Bool) {
        let flags = current ? WL_OUTPUT_MODE_CURRENT.rawValue : 0
        for output in outputs {
            wl_output_send_mode(output.resource, flags, width, height, refresh)
            if wl_resource_get_version(output.resource) >= 2 { wl_output_send_done(output.resource) }
        }
    }

    /// Sends `wl_surface.enter` for each of the client's outputs (none when it bound none).
    func enterOutput(_ surface: SurfaceObject) {
        let mine = outputs.filter { $0.client == surface.client }
        for output in mine { wl_surface_send_enter(surface.resource, output.resource) }
        if !mine.isEmpty { surface.record.isOnOutput = true }
    }

    func enterOutput(_ id: SurfaceID) throws {
        let surface = try self.surface(id)
        guard outputs.contains(where: { $0.client == surface.client }) else {
            throw TestCompositorError("test compositor: wl_surface.enter: \(surface.client) has not bound wl_output")
        }
        enterOutput(surface)
    }

    func leaveOutput(_ id: SurfaceID) throws {
        let surface = try self.surface(id)
        let mine = outputs.filter { $0.client == surface.client }
        guard !mine.isEmpty else { throw TestCompositorError("test compositor: wl_surface.leave: \(surface.client) has not bound wl_output") }
        for output in mine { wl_surface_send_leave(surface.resource, output.resource) }
        surface.record.isOnOutput = false
    }
}
