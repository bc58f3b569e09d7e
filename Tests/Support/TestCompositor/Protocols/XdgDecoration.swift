// zxdg_decoration_manager_v1 / zxdg_toplevel_decoration_v1: a client asks who draws its window's
// title bar; the compositor records each request and answers a mode at once with the mode asked
// for (server-side for `unset_mode`), as KWin and sway do.
internal import CWaylandServer
internal import CWaylandServerProtocols

extension Server {
    func bindDecorationManager(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_zxdg_decoration_manager_v1_interface(), version: Int32(version), id: id) else { return }
        bind(self, to: resource, implementation: decorationManagerImplementation)
    }
}

private let decorationManagerImplementation = implementationTable(zxdg_decoration_manager_v1_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    get_toplevel_decoration: { client, resource, id, toplevelResource in
        let toplevel = object(toplevelResource, as: ToplevelObject.self)
        guard toplevel.decoration == nil else {
            return postError(resource, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                             "the xdg_toplevel already has a zxdg_toplevel_decoration_v1")
        }
        guard let decorationResource = createResource(client, wlslider_server_zxdg_toplevel_decoration_v1_interface(),
                                                      version: wl_resource_get_version(resource), id: id) else { return }
        let decoration = ToplevelDecorationObject(resource: decorationResource, toplevel: toplevel)
        toplevel.decoration = decoration
        toplevel.update { $0.hasDecorationObject = true }
        bind(decoration, to: decorationResource, implementation: toplevelDecorationImplementation)
    }
))

private let toplevelDecorationImplementation = implementationTable(zxdg_toplevel_decoration_v1_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    set_mode: { _, resource, mode in
        guard let known = DecorationMode(rawValue: mode) else {
            // The protocol has no error for it; a real compositor ignores an unknown mode.
            return
        }
        object(resource, as: ToplevelDecorationObject.self).requested(known)
    },
    unset_mode: { _, resource in object(resource, as: ToplevelDecorationObject.self).requested(nil) }
))

/// One `zxdg_toplevel_decoration_v1`: records the modes asked for in its toplevel's state.
final class ToplevelDecorationObject: ResourceObject {
    let resource: OpaquePointer
    weak var toplevel: ToplevelObject?

    init(resource: OpaquePointer, toplevel: ToplevelObject) {
        self.resource = resource
        self.toplevel = toplevel
    }

    func resourceDestroyed() { toplevel?.decoration = nil }

    /// Records `mode` and configures it (server-side when the client leaves it to the compositor).
    func requested(_ mode: DecorationMode?) {
        toplevel?.update { $0.requestedDecorationModes.append(mode) }
        zxdg_toplevel_decoration_v1_send_configure(resource, (mode ?? .serverSide).rawValue)
    }
}
