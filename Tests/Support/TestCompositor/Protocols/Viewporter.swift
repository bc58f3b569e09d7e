// wp_viewporter / wp_viewport: crop (source) and scale (destination) of a surface, as HiDPI
// clients use with fractional scales. Double-buffered, recorded in each Commit, checked as the
// protocol demands.
internal import CWaylandServer
internal import CWaylandServerProtocols

extension Server {
    func bindViewporter(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_wp_viewporter_interface(), version: Int32(version), id: id) else { return }
        bind(self, to: resource, implementation: viewporterImplementation)
    }
}

private let viewporterImplementation = implementationTable(wp_viewporter_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    get_viewport: { client, resource, id, surfaceResource in
        let surface = object(surfaceResource, as: SurfaceObject.self)
        guard surface.viewport == nil else {
            return postError(resource, WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue, "wl_surface@\(wl_resource_get_id(surfaceResource)) already has a wp_viewport")
        }
        guard let viewport = createResource(client, wlslider_server_wp_viewport_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        let object = ViewportObject(resource: viewport, surface: surface)
        bind(object, to: viewport, implementation: viewportImplementation)
        surface.viewport = object
        surface.record.hasViewport = true
    }
))

private let viewportImplementation = implementationTable(wp_viewport_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    set_source: { _, resource, x, y, w, h in
        object(resource, as: ViewportObject.self).setSource(wl_fixed_to_double(x), wl_fixed_to_double(y), wl_fixed_to_double(w), wl_fixed_to_double(h))
    },
    set_destination: { _, resource, w, h in object(resource, as: ViewportObject.self).setDestination(w, h) }
))

/// One `wp_viewport`.
final class ViewportObject: ResourceObject {
    let resource: OpaquePointer
    weak var surface: SurfaceObject?
    // .some(nil) unsets; nil leaves unchanged.
    private var pendingSource: ViewportSource??
    private var pendingDestination: Size??
    private(set) var source: ViewportSource?
    private(set) var destination: Size?

    init(resource: OpaquePointer, surface: SurfaceObject) {
        self.resource = resource
        self.surface = surface
    }

    func resourceDestroyed() {
        guard let surface, surface.viewport === self else { return }
        surface.viewport = nil
        surface.record.hasViewport = false
    }

    func setSource(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        guard surface != nil else { return postError(resource, WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "set_source after the wl_surface was destroyed") }
        if x == -1 && y == -1 && w == -1 && h == -1 { return pendingSource = .some(nil) }
        guard x >= 0 && y >= 0 && w > 0 && h > 0 else {
            return postError(resource, WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "source (\(x), \(y), \(w)×\(h)) has a negative origin or an empty size")
        }
        pendingSource = .some(ViewportSource(x: x, y: y, width: w, height: h))
    }

    func setDestination(_ w: Int32, _ h: Int32) {
        guard surface != nil else { return postError(resource, WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "set_destination after the wl_surface was destroyed") }
        if w == -1 && h == -1 { return pendingDestination = .some(nil) }
        guard w > 0 && h > 0 else { return postError(resource, WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "destination \(w)×\(h) is not positive") }
        pendingDestination = .some(Size(width: w, height: h))
    }

    /// Checks the pending crop against the buffer (in surface-scale units) before a commit.
    func validate(bufferWidth: Int32, bufferHeight: Int32) -> Bool {
        let src = pendingSource ?? source
        let dst = pendingDestination ?? destination
        if let src, src.x + src.width > Double(bufferWidth) || src.y + src.height > Double(bufferHeight) {
            postError(resource, WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue, "source (\(src.x), \(src.y), \(src.width)×\(src.height)) extends outside the \(bufferWidth)×\(bufferHeight) buffer")
            return false
        }
        if let src, dst == nil, src.width.rounded() != src.width || src.height.rounded() != src.height {
            postError(resource, WP_VIEWPORT_ERROR_BAD_SIZE.rawValue, "source size \(src.width)×\(src.height) is not integer and no destination is set")
            return false
        }
        return true
    }

    func applyPending() {
        if let s = pendingSource { source = s }
        if let d = pendingDestination { destination = d }
        pendingSource = nil
        pendingDestination = nil
    }
}
