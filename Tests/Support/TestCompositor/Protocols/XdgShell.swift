// xdg_wm_base, xdg_surface, xdg_toplevel (and inert xdg_positioner / xdg_popup): the desktop
// window role. The compositor checks the configure handshake and records title, app id and every
// configure and ack; the test decides sizes and states.
internal import CWaylandServer
internal import CWaylandServerProtocols

extension Server {
    func bindWmBase(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_xdg_wm_base_interface(), version: Int32(version), id: id) else { return }
        bind(WmBaseObject(server: self, resource: resource), to: resource, implementation: wmBaseImplementation)
    }

    /// Sends `xdg_wm_base.ping` to every wm_base of the client; returns the serial.
    func ping(_ id: ClientID) throws -> UInt32 {
        guard let client = wlClient(id) else { throw TestCompositorError.unknownClient(id) }
        let serial = nextSerial()
        let bases = wmBases.filter { wl_resource_get_client($0.resource) == client }
        guard !bases.isEmpty else { throw TestCompositorError("test compositor: \(id) has not bound xdg_wm_base") }
        for base in bases { xdg_wm_base_send_ping(base.resource, serial) }
        return serial
    }
}

private let wmBaseImplementation = implementationTable(xdg_wm_base_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    create_positioner: { client, resource, id in
        guard let positioner = createResource(client, wlslider_server_xdg_positioner_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        bind(InertObject(), to: positioner, implementation: positionerImplementation)
    },
    get_xdg_surface: { _, resource, id, surface in object(resource, as: WmBaseObject.self).getXdgSurface(id, object(surface)) },
    pong: { _, resource, serial in
        let base = object(resource, as: WmBaseObject.self)
        base.server.state.clients[base.server.clientID(of: resource)]?.pongs.append(serial)
    }
))

/// One bound `xdg_wm_base`.
final class WmBaseObject: ResourceObject {
    unowned let server: Server
    let resource: OpaquePointer
    init(server: Server, resource: OpaquePointer) {
        self.server = server
        self.resource = resource
        server.wmBases.append(self)
    }
    func resourceDestroyed() { server.wmBases.removeAll { $0 === self } }

    func getXdgSurface(_ id: UInt32, _ surface: SurfaceObject) {
        guard surface.role == nil, surface.record.role == .none || surface.record.role == .toplevel else {
            return postError(resource, XDG_WM_BASE_ERROR_ROLE.rawValue, "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.record.role)")
        }
        let version = wl_resource_get_version(resource)
        guard let xdgResource = createResource(wl_resource_get_client(resource), wlslider_server_xdg_surface_interface(), version: version, id: id) else { return }
        let xdg = XdgSurfaceObject(resource: xdgResource, surface: surface)
        bind(xdg, to: xdgResource, implementation: xdgSurfaceImplementation)
        if surface.buffer != nil || { if case .buffer = surface.pending.attach { true } else { false } }() {
            return postError(xdgResource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "xdg_surface created for a wl_surface that already has a buffer")
        }
        surface.role = xdg
    }
}

/// An object with no state whose requests are accepted and ignored (xdg_positioner).
final class InertObject: ResourceObject {
    func resourceDestroyed() {}
}

private let positionerImplementation = implementationTable(xdg_positioner_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    set_size: { _, _, _, _ in }, set_anchor_rect: { _, _, _, _, _, _ in }, set_anchor: { _, _, _ in },
    set_gravity: { _, _, _ in }, set_constraint_adjustment: { _, _, _ in }, set_offset: { _, _, _, _ in },
    set_reactive: { _, _ in }, set_parent_size: { _, _, _, _ in }, set_parent_configure: { _, _, _ in }
))

private let xdgSurfaceImplementation = implementationTable(xdg_surface_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    get_toplevel: { _, resource, id in object(resource, as: XdgSurfaceObject.self).getToplevel(id) },
    get_popup: { _, resource, id, _, _ in object(resource, as: XdgSurfaceObject.self).getPopup(id) },
    set_window_geometry: { _, resource, x, y, w, h in object(resource, as: XdgSurfaceObject.self).setWindowGeometry(Rect(x: x, y: y, width: w, height: h)) },
    ack_configure: { _, resource, serial in object(resource, as: XdgSurfaceObject.self).ackConfigure(serial) }
))

/// One `xdg_surface` and, once the client asks, its toplevel or popup.
final class XdgSurfaceObject: ResourceObject, SurfaceRoleHandler {
    let resource: OpaquePointer
    weak var surface: SurfaceObject?
    var toplevel: OpaquePointer?
    var popup: OpaquePointer?
    var configure = ConfigureSequence()
    var pendingGeometry: Rect?

    init(resource: OpaquePointer, surface: SurfaceObject) {
        self.resource = resource
        self.surface = surface
    }

    func resourceDestroyed() {
        if let surface, surface.role === self { surface.role = nil }
    }

    func getToplevel(_ id: UInt32) {
        guard let surface, toplevel == nil, popup == nil else {
            return postError(resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a toplevel or popup")
        }
        guard let r = createResource(wl_resource_get_client(resource), wlslider_server_xdg_toplevel_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        bind(ToplevelObject(xdg: self), to: r, implementation: toplevelImplementation)
        toplevel = r
        surface.record.role = .toplevel
        surface.record.toplevel = ToplevelState()
    }

    func getPopup(_ id: UInt32) {
        guard let surface, toplevel == nil, popup == nil else {
            return postError(resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a toplevel or popup")
        }
        guard let r = createResource(wl_resource_get_client(resource), wlslider_server_xdg_popup_interface(), version: wl_resource_get_version(resource), id: id) else { return }
        bind(InertObject(), to: r, implementation: popupImplementation)
        popup = r
        surface.record.role = .popup
        xdg_popup_send_popup_done(r)  // the test compositor shows no popups: dismiss at once
    }

    func setWindowGeometry(_ rect: Rect) {
        guard rect.width > 0 && rect.height > 0 else {
            return postError(resource, XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry \(rect) has no area")
        }
        pendingGeometry = rect
    }

    func ackConfigure(_ serial: UInt32) {
        guard configure.ack(serial) else {
            return postError(resource, XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, "ack_configure(\(serial)): no configure with that serial is waiting for an ack")
        }
        surface?.record.acks.append(serial)
    }

    func validateCommit(_ surface: SurfaceObject) -> Bool {
        guard toplevel != nil || popup != nil else {
            postError(resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED.rawValue, "commit before get_toplevel or get_popup")
            return false
        }
        if case .buffer = surface.pending.attach, !configure.acknowledged {
            postError(resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "buffer committed before the first configure was acknowledged")
            return false
        }
        return true
    }

    func didCommit(_ surface: SurfaceObject) {
        if let geometry = pendingGeometry, surface.record.toplevel != nil { surface.record.toplevel!.windowGeometry = geometry }
        if case .removed = surface.record.lastCommit?.attachment { configure.unmapped() }
        guard !configure.initialSent, surface.server.configuration.configureOnInitialCommit, toplevel != nil else { return }
        let config = surface.server.configuration
        surface.server.sendToplevelConfigure(self, size: config.initialToplevelSize, states: config.initialToplevelStates, bounds: nil)
    }
}

extension Server {
    /// Sends `xdg_toplevel.configure` (with `configure_bounds` first when given) and
    /// `xdg_surface.configure`; returns the serial.
    @discardableResult
    func sendToplevelConfigure(_ xdg: XdgSurfaceObject, size: Size, states: [ToplevelStateFlag], bounds: Size?) -> UInt32 {
        let serial = nextSerial()
        if let toplevel = xdg.toplevel {
            if let bounds, wl_resource_get_version(toplevel) >= 4 {
                xdg_toplevel_send_configure_bounds(toplevel, bounds.width, bounds.height)
            }
            var array = wl_array()
            wl_array_init(&array)
            for flag in states {
                wl_array_add(&array, 4)?.storeBytes(of: flag.rawValue, as: UInt32.self)
            }
            xdg_toplevel_send_configure(toplevel, size.width, size.height, &array)
            wl_array_release(&array)
        }
        xdg_surface_send_configure(xdg.resource, serial)
        xdg.configure.didSend(serial)
        xdg.surface?.record.configures.append(ConfigureEvent(serial: serial, size: size, states: states))
        return serial
    }
}

private let popupImplementation = implementationTable(xdg_popup_interface(
    destroy: { _, resource in wl_resource_destroy(resource) },
    grab: { _, _, _, _ in },
    reposition: { _, _, _, _ in }
))

/// One `xdg_toplevel`: its requests are recorded in the surface's ``ToplevelState``.
final class ToplevelObject: ResourceObject {
    weak var xdg: XdgSurfaceObject?
    /// Its `zxdg_toplevel_decoration_v1`, while that lives (it must be destroyed first).
    weak var decoration: ToplevelDecorationObject?
    init(xdg: XdgSurfaceObject) { self.xdg = xdg }
    func resourceDestroyed() { xdg?.toplevel = nil }

    /// Applies `change` to the recorded toplevel state.
    func update(_ change: (inout ToplevelState) -> Void) {
        guard let surface = xdg?.surface, surface.record.toplevel != nil else { return }
        change(&surface.record.toplevel!)
    }
    func note(_ request: String) { update { $0.otherRequests.append(request) } }
}

private func toplevel(_ resource: OpaquePointer?) -> ToplevelObject { object(resource) }

private let toplevelImplementation = implementationTable(xdg_toplevel_interface(
    destroy: { _, resource in
        if let decoration = toplevel(resource).decoration {
            return postError(decoration.resource, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue,
                             "xdg_toplevel destroyed before its zxdg_toplevel_decoration_v1")
        }
        wl_resource_destroy(resource)
    },
    set_parent: { _, resource, _ in toplevel(resource).note("set_parent") },
    set_title: { _, resource, title in toplevel(resource).update { $0.title = String(cString: title!) } },
    set_app_id: { _, resource, appID in toplevel(resource).update { $0.appID = String(cString: appID!) } },
    show_window_menu: { _, resource, _, _, _, _ in toplevel(resource).note("show_window_menu") },
    move: { _, resource, _, _ in toplevel(resource).note("move") },
    resize: { _, resource, _, _, _ in toplevel(resource).note("resize") },
    set_max_size: { _, resource, w, h in setLimit(resource, w, h) { $0.maxSize = $1 } },
    set_min_size: { _, resource, w, h in setLimit(resource, w, h) { $0.minSize = $1 } },
    set_maximized: { _, resource in toplevel(resource).note("set_maximized") },
    unset_maximized: { _, resource in toplevel(resource).note("unset_maximized") },
    set_fullscreen: { _, resource, _ in toplevel(resource).note("set_fullscreen") },
    unset_fullscreen: { _, resource in toplevel(resource).note("unset_fullscreen") },
    set_minimized: { _, resource in toplevel(resource).note("set_minimized") }
))

private func setLimit(_ resource: OpaquePointer?, _ w: Int32, _ h: Int32, _ apply: (inout ToplevelState, Size) -> Void) {
    guard w >= 0 && h >= 0 else {
        return postError(resource, XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "negative size limit \(w)×\(h)")
    }
    toplevel(resource).update { apply(&$0, Size(width: w, height: h)) }
}
