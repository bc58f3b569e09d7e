// wp_fractional_scale_manager_v1 / wp_fractional_scale_v1: the compositor's preferred scale for
// a surface in 120ths (e.g. 180 for 1.5), which the test sends when it wants.
internal import CWaylandServer
internal import CWaylandServerProtocols

extension Server {
    func bindFractionalScale(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_wp_fractional_scale_manager_v1_interface(), version: Int32(version), id: id) else { return }
        bind(self, to: resource, implementation: fractionalScaleManagerImplementation)
    }

    /// Sends `preferred_scale` to the surface's wp_fractional_scale_v1.
    func sendPreferredScale(_ id: SurfaceID, scale120: UInt32) throws {
        let surface = try self.surface(id)
        guard let fractional = surface.fractionalScale else {
            throw TestCompositorError("test compositor: wp_fractional_scale_v1.preferred_scale: \(id) has no wp_fractional_scale_v1")
        }
        wp_fractional_scale_v1_send_preferred_scale(fractional.resource, scale120)
        surface.record.preferredScaleSent = scale120
    }
}

private let fractionalScaleManagerImplementation = implementationTable(wp_fractional_scale_manager_v1_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    get_fractional_scale: { client, resource, id, surfaceResource in
        let surface = object(surfaceResource, as: SurfaceObject.self)
        guard surface.fractionalScale == nil else {
            return postError(resource, WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue, "wl_surface@\(wl_resource_get_id(surfaceResource)) already has a wp_fractional_scale_v1")
        }
        guard let scale = createResource(client, wlslider_server_wp_fractional_scale_v1_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        let object = FractionalScaleObject(resource: scale, surface: surface)
        bind(object, to: scale, implementation: fractionalScaleImplementation)
        surface.fractionalScale = object
        surface.record.hasFractionalScale = true
        if let preferred = surface.server.configuration.preferredFractionalScale {
            try? surface.server.sendPreferredScale(surface.id, scale120: preferred)
        }
    }
))

private let fractionalScaleImplementation = implementationTable(wp_fractional_scale_v1_interface(
    destroy: { _, resource in wl_resource_destroy(resource) }
))

/// One `wp_fractional_scale_v1`.
final class FractionalScaleObject: ResourceObject {
    let resource: OpaquePointer
    weak var surface: SurfaceObject?
    init(resource: OpaquePointer, surface: SurfaceObject) {
        self.resource = resource
        self.surface = surface
    }
    func resourceDestroyed() {
        guard let surface, surface.fractionalScale === self else { return }
        surface.fractionalScale = nil
        surface.record.hasFractionalScale = false
    }
}
