// wp_cursor_shape_manager_v1 / wp_cursor_shape_device_v1: a client names a cursor shape instead
// of drawing one; the compositor records each set_shape.
internal import CWaylandServer
internal import CWaylandServerProtocols

/// The protocol names of `wp_cursor_shape_device_v1.shape`, index = value - 1.
let cursorShapeNames = [
    "default", "context_menu", "help", "pointer", "progress", "wait", "cell", "crosshair", "text",
    "vertical_text", "alias", "copy", "move", "no_drop", "not_allowed", "grab", "grabbing",
    "e_resize", "n_resize", "ne_resize", "nw_resize", "s_resize", "se_resize", "sw_resize", "w_resize",
    "ew_resize", "ns_resize", "nesw_resize", "nwse_resize", "col_resize", "row_resize", "all_scroll",
    "zoom_in", "zoom_out",
]

extension Server {
    func bindCursorShape(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_wp_cursor_shape_manager_v1_interface(), version: Int32(version), id: id) else { return }
        bind(self, to: resource, implementation: cursorShapeManagerImplementation)
    }
}

private let cursorShapeManagerImplementation = implementationTable(wp_cursor_shape_manager_v1_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    get_pointer: { client, resource, id, _ in
        let server = object(resource, as: Server.self)
        guard let device = createResource(client, wlslider_server_wp_cursor_shape_device_v1_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        bind(CursorShapeDeviceObject(server: server, client: server.clientID(of: resource)), to: device, implementation: cursorShapeDeviceImplementation)
    },
    get_tablet_tool_v2: { client, resource, id, _ in
        // No tablets here; the object exists so the client's requests stay valid.
        let server = object(resource, as: Server.self)
        guard let device = createResource(client, wlslider_server_wp_cursor_shape_device_v1_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        bind(CursorShapeDeviceObject(server: server, client: server.clientID(of: resource)), to: device, implementation: cursorShapeDeviceImplementation)
    }
))

private let cursorShapeDeviceImplementation = implementationTable(wp_cursor_shape_device_v1_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    set_shape: { _, resource, serial, shape in
        let device = object(resource, as: CursorShapeDeviceObject.self)
        guard shape >= 1 && Int(shape) <= cursorShapeNames.count else {
            return postError(resource, WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue, "shape \(shape) is not in wp_cursor_shape_device_v1.shape")
        }
        device.server.state.cursorShapes.append(CursorShapeRequest(client: device.client, serial: serial, shape: shape, name: cursorShapeNames[Int(shape) - 1]))
    }
))

/// One `wp_cursor_shape_device_v1`.
final class CursorShapeDeviceObject: ResourceObject {
    unowned let server: Server
    let client: ClientID
    init(server: Server, client: ClientID) {
        self.server = server
        self.client = client
    }
    func resourceDestroyed() {}
}
