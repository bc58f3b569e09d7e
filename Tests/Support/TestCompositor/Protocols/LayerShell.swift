// zwlr_layer_shell_v1 (version 4) and zwlr_layer_surface_v1: panels and overlays anchored to
// output edges. State is double-buffered and recorded at commit; the compositor enforces the
// rules a real one does (configure before the first buffer, a zero size needs opposite anchors).
internal import CWaylandServer
internal import CWaylandServerProtocols

extension Server {
    func bindLayerShell(_ client: OpaquePointer?, _ version: UInt32, _ id: UInt32) {
        guard let resource = createResource(client, wlslider_server_zwlr_layer_shell_v1_interface(), version: Int32(version), id: id) else { return }
        bind(self, to: resource, implementation: layerShellImplementation)
    }

    func getLayerSurface(_ shell: OpaquePointer?, _ id: UInt32, _ surface: SurfaceObject, layer: UInt32, namespace: String) {
        guard surface.role == nil, surface.record.role == .none || surface.record.role == .layer else {
            return postError(shell, ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue, "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.record.role)")
        }
        guard surface.buffer == nil, { if case .buffer = surface.pending.attach { false } else { true } }() else {
            return postError(shell, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "wl_surface@\(wl_resource_get_id(surface.resource)) already has a buffer")
        }
        guard let layer = Layer(rawValue: layer) else {
            return postError(shell, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "layer \(layer) is not a zwlr_layer_shell_v1.layer")
        }
        guard let resource = createResource(wl_resource_get_client(shell), wlslider_server_zwlr_layer_surface_v1_interface(), version: wl_resource_get_version(shell), id: id) else { return }
        let layerSurface = LayerSurfaceObject(resource: resource, surface: surface, state: LayerSurfaceState(namespace: namespace, layer: layer))
        bind(layerSurface, to: resource, implementation: layerSurfaceImplementation)
        surface.role = layerSurface
        surface.record.role = .layer
        surface.record.layer = layerSurface.pending
    }

    /// Sends `zwlr_layer_surface_v1.configure`; returns the serial.
    @discardableResult
    func sendLayerConfigure(_ layer: LayerSurfaceObject, size: Size) -> UInt32 {
        let serial = nextSerial()
        zwlr_layer_surface_v1_send_configure(layer.resource, serial, UInt32(bitPattern: size.width), UInt32(bitPattern: size.height))
        layer.configure.didSend(serial)
        layer.surface?.record.configures.append(ConfigureEvent(serial: serial, size: size, states: []))
        return serial
    }
}

private let layerShellImplementation = implementationTable(zwlr_layer_shell_v1_interface(
    get_layer_surface: { _, resource, id, surface, _, layer, namespace in
        object(resource, as: Server.self).getLayerSurface(resource, id, object(surface), layer: layer, namespace: String(cString: namespace!))
    },
    destroy: { _, resource in wl_resource_destroy(resource) }
))

private func layer(_ resource: OpaquePointer?) -> LayerSurfaceObject { object(resource) }

private let layerSurfaceImplementation = implementationTable(zwlr_layer_surface_v1_interface(
    set_size: { _, resource, w, h in layer(resource).pending.size = Size(width: Int32(bitPattern: w), height: Int32(bitPattern: h)) },
    set_anchor: { _, resource, anchor in layer(resource).setAnchor(anchor) },
    set_exclusive_zone: { _, resource, zone in layer(resource).pending.exclusiveZone = zone },
    set_margin: { _, resource, top, right, bottom, left in
        layer(resource).pending.margin = Margin(top: top, right: right, bottom: bottom, left: left)
    },
    set_keyboard_interactivity: { _, resource, value in layer(resource).setKeyboardInteractivity(value) },
    get_popup: { _, _, _ in },
    ack_configure: { _, resource, serial in layer(resource).ackConfigure(serial) },
    destroy: { _, resource in wl_resource_destroy(resource) },
    set_layer: { _, resource, value in layer(resource).setLayer(value) }
))

/// One `zwlr_layer_surface_v1`.
final class LayerSurfaceObject: ResourceObject, SurfaceRoleHandler {
    let resource: OpaquePointer
    weak var surface: SurfaceObject?
    var pending: LayerSurfaceState
    var configure = ConfigureSequence()

    init(resource: OpaquePointer, surface: SurfaceObject, state: LayerSurfaceState) {
        self.resource = resource
        self.surface = surface
        pending = state
    }

    func resourceDestroyed() {
        if let surface, surface.role === self { surface.role = nil }
    }

    func setAnchor(_ value: UInt32) {
        guard value <= 15 else { return postError(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR.rawValue, "anchor \(value) has bits beyond top|bottom|left|right") }
        pending.anchor = LayerAnchor(rawValue: value)
    }

    func setKeyboardInteractivity(_ value: UInt32) {
        let limit: UInt32 = wl_resource_get_version(resource) >= 4 ? 2 : 1
        guard value <= limit, let mode = KeyboardInteractivity(rawValue: value) else {
            return postError(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY.rawValue, "keyboard interactivity \(value) (version \(wl_resource_get_version(resource)) allows 0...\(limit))")
        }
        pending.keyboardInteractivity = mode
    }

    func setLayer(_ value: UInt32) {
        // Same code wlroots posts here: the shell's invalid_layer.
        guard let layer = Layer(rawValue: value) else { return postError(resource, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "layer \(value) is not a zwlr_layer_shell_v1.layer") }
        pending.layer = layer
    }

    func ackConfigure(_ serial: UInt32) {
        guard configure.ack(serial) else {
            return postError(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue, "ack_configure(\(serial)): no configure with that serial is waiting for an ack")
        }
        surface?.record.acks.append(serial)
    }

    func validateCommit(_ surface: SurfaceObject) -> Bool {
        let horizontal: LayerAnchor = [.left, .right], vertical: LayerAnchor = [.top, .bottom]
        if pending.size.width == 0 && !pending.anchor.isSuperset(of: horizontal) || pending.size.height == 0 && !pending.anchor.isSuperset(of: vertical) {
            postError(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, "size \(pending.size) has a zero side without both opposite anchors (anchor \(pending.anchor.rawValue))")
            return false
        }
        if case .buffer = surface.pending.attach, !configure.acknowledged {
            postError(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue, "buffer committed before the first configure was acknowledged")
            return false
        }
        return true
    }

    func didCommit(_ surface: SurfaceObject) {
        surface.record.layer = LayerSurfaceState(copying: pending, closesSent: surface.record.layer?.closesSent ?? 0)
        if case .removed = surface.record.lastCommit?.attachment { configure.unmapped() }
        guard !configure.initialSent, surface.server.configuration.configureOnInitialCommit else { return }
        surface.server.sendLayerConfigure(self, size: configuredSize(output: surface.server.configuration.output))
    }

    /// The size a compositor gives: the requested one, with zero sides stretched between the anchors.
    func configuredSize(output: OutputConfiguration) -> Size {
        var size = pending.size
        if size.width == 0 { size.width = output.width - pending.margin.left - pending.margin.right }
        if size.height == 0 { size.height = output.height - pending.margin.top - pending.margin.bottom }
        return size
    }
}

extension LayerSurfaceState {
    init(copying other: LayerSurfaceState, closesSent: Int) {
        self = other
        self.closesSent = closesSent
    }
}
