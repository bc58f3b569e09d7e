// wl_compositor, wl_surface and wl_region: double-buffered surface state, applied and recorded on
// every commit (with a copy of the attached buffer's pixels).
internal import CWaylandServer
internal import CWaylandServerProtocols

/// What a surface role (xdg_surface, layer surface) checks and does around each commit.
protocol SurfaceRoleHandler: AnyObject {
    /// Checks the pending state; posts a protocol error and returns false when the commit is illegal.
    func validateCommit(_ surface: SurfaceObject) -> Bool
    /// Runs after the commit was applied and recorded.
    func didCommit(_ surface: SurfaceObject)
}

private let compositorImplementation = implementationTable(wl_compositor_interface(
    create_surface: { _, resource, id in object(resource, as: Server.self).createSurface(resource, id) },
    create_region: { client, resource, id in
        guard let region = createResource(client, wlslider_server_wl_region_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        bind(RegionObject(), to: region, implementation: regionImplementation)
    }
))

extension Server: ResourceObject {
    /// Server-level resources (the `wl_compositor` and other manager objects) have no state of their own.
    func resourceDestroyed() {}

    func bindCompositor(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_wl_compositor_interface(), version: Int32(version), id: id) else { return }
        bind(self, to: resource, implementation: compositorImplementation)
    }

    func createSurface(_ compositor: OpaquePointer?, _ id: UInt32) {
        let version = wl_resource_get_version(compositor)
        guard let resource = createResource(wl_resource_get_client(compositor), wlslider_server_wl_surface_interface(), version: version, id: id) else { return }
        let surface = SurfaceObject(server: self, resource: resource, id: SurfaceID(surfaceIDs.next()), client: clientID(of: compositor))
        bind(surface, to: resource, implementation: surfaceImplementation)
        surfaces[surface.id] = surface
        state.surfaces[surface.id] = SurfaceState(id: surface.id, client: surface.client, version: UInt32(version))
    }

    /// The live surface with that number, or a clear error.
    func surface(_ id: SurfaceID) throws -> SurfaceObject {
        guard let surface = surfaces[id] else { throw TestCompositorError.unknownSurface(id) }
        return surface
    }
}

private let surfaceImplementation = implementationTable(wl_surface_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    attach: { _, resource, buffer, x, y in object(resource, as: SurfaceObject.self).attach(buffer, x, y) },
    damage: { _, resource, x, y, w, h in
        object(resource, as: SurfaceObject.self).pending.surfaceDamage.append(Rect(x: x, y: y, width: w, height: h))
    },
    frame: { client, resource, id in object(resource, as: SurfaceObject.self).requestFrame(client, id) },
    set_opaque_region: { _, resource, region in
        object(resource, as: SurfaceObject.self).pending.opaqueRegion = .some(optionalObject(region, as: RegionObject.self)?.region)
    },
    set_input_region: { _, resource, region in
        object(resource, as: SurfaceObject.self).pending.inputRegion = .some(optionalObject(region, as: RegionObject.self)?.region)
    },
    commit: { _, resource in object(resource, as: SurfaceObject.self).commit() },
    set_buffer_transform: { _, resource, transform in object(resource, as: SurfaceObject.self).setTransform(transform) },
    set_buffer_scale: { _, resource, scale in object(resource, as: SurfaceObject.self).setScale(scale) },
    damage_buffer: { _, resource, x, y, w, h in
        object(resource, as: SurfaceObject.self).pending.bufferDamage.append(Rect(x: x, y: y, width: w, height: h))
    },
    offset: { _, resource, x, y in object(resource, as: SurfaceObject.self).pending.offset = Offset(x: x, y: y) }
))

/// One `wl_surface`.
final class SurfaceObject: ResourceObject {
    /// State the client has sent since the last commit.
    struct Pending {
        enum Attach { case unchanged, buffer(BufferObject), removed }
        var attach = Attach.unchanged
        var offset = Offset(x: 0, y: 0)
        var surfaceDamage: [Rect] = []
        var bufferDamage: [Rect] = []
        var frameCallbacks: [FrameCallbackObject] = []
        var bufferScale: Int32?
        var bufferTransform: Int32?
        // .some(nil) sets the infinite region; nil leaves it unchanged.
        var inputRegion: Region??
        var opaqueRegion: Region??
    }

    unowned let server: Server
    let resource: OpaquePointer
    let id: SurfaceID
    let client: ClientID
    var pending = Pending()
    var bufferScale: Int32 = 1
    var bufferTransform: Int32 = 0
    var inputRegion: Region?
    var opaqueRegion: Region?
    /// The buffer in the committed state.
    var buffer: BufferObject?
    var role: SurfaceRoleHandler?
    weak var viewport: ViewportObject?
    weak var fractionalScale: FractionalScaleObject?

    init(server: Server, resource: OpaquePointer, id: SurfaceID, client: ClientID) {
        self.server = server
        self.resource = resource
        self.id = id
        self.client = client
    }

    var version: Int32 { wl_resource_get_version(resource) }
    /// The recorded state of this surface (the place every protocol file writes to).
    var record: SurfaceState {
        get { server.state.surfaces[id]! }
        _modify { yield &server.state.surfaces[id]! }
    }

    func attach(_ buffer: OpaquePointer?, _ x: Int32, _ y: Int32) {
        if version >= 5 && (x != 0 || y != 0) {
            return postError(resource, WL_SURFACE_ERROR_INVALID_OFFSET.rawValue, "attach with offset (\(x), \(y)) on wl_surface version \(version); use wl_surface.offset")
        }
        if version < 5 { pending.offset = Offset(x: x, y: y) }
        guard let buffer else { return pending.attach = .removed }
        guard let object = server.bufferObject(for: buffer, client: client) else {
            return postError(resource, WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue, "attached wl_buffer@\(wl_resource_get_id(buffer)) is not a wl_shm buffer")
        }
        pending.attach = .buffer(object)
    }

    func requestFrame(_ client: OpaquePointer?, _ id: UInt32) {
        guard let callback = createResource(client, wlslider_server_wl_callback_interface(), version: 1, id: id) else { return }
        let object = FrameCallbackObject(resource: callback, surface: self.id, server: server)
        bind(object, to: callback, implementation: nil)
        pending.frameCallbacks.append(object)
        record.frameCallbacksRequested += 1
    }

    func setScale(_ scale: Int32) {
        guard scale >= 1 else { return postError(resource, WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "buffer scale \(scale) is not positive") }
        pending.bufferScale = scale
    }

    func setTransform(_ transform: Int32) {
        guard (0...7).contains(transform) else {
            return postError(resource, WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue, "buffer transform \(transform) is not a wl_output.transform")
        }
        pending.bufferTransform = transform
    }

    func resourceDestroyed() {
        record.isDestroyed = true
        server.surfaceDestroyed(self)
    }
}

/// One `wl_region`: the client's add/subtract rectangles, in order.
final class RegionObject: ResourceObject {
    var region = Region()
    func resourceDestroyed() {}
}

private let regionImplementation = implementationTable(wl_region_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    add: { _, resource, x, y, w, h in
        object(resource, as: RegionObject.self).region.operations.append(.add(Rect(x: x, y: y, width: w, height: h)))
    },
    subtract: { _, resource, x, y, w, h in
        object(resource, as: RegionObject.self).region.operations.append(.subtract(Rect(x: x, y: y, width: w, height: h)))
    }
))
