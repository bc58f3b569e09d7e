// The zwlr_layer_surface_v1 role: the slider on a screen edge (edge mode).
internal import CWaylandProtocols

/// A layer surface on the overlay layer, anchored to one edge and so centred along it, namespace
/// "wlslider", exclusive zone 0: it reserves no space and does not move other windows.
final class LayerSurface {
    private unowned let surface: SliderSurface
    private let proxy: OpaquePointer
    private let requestedSize: LogicalSize

    static let namespace = "wlslider"

    init(shell: BoundGlobal, surface: SliderSurface, edge: Edge, size: LogicalSize, keyboardOnDemand: Bool) {
        self.surface = surface
        requestedSize = size
        proxy = zwlr_layer_shell_v1_get_layer_surface(shell.proxy, surface.proxy, nil,
                                                      ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue, LayerSurface.namespace)
        zwlr_layer_surface_v1_add_listener(proxy, Listeners.layerSurface, Unmanaged.passUnretained(self).toOpaque())
        zwlr_layer_surface_v1_set_size(proxy, UInt32(max(size.width, 1)), UInt32(max(size.height, 1)))
        zwlr_layer_surface_v1_set_anchor(proxy, LayerSurface.anchor(for: edge))
        zwlr_layer_surface_v1_set_exclusive_zone(proxy, 0)
        zwlr_layer_surface_v1_set_keyboard_interactivity(
            proxy, LayerSurface.keyboardInteractivity(shellVersion: shell.version, onDemand: keyboardOnDemand))
    }

    deinit {
        zwlr_layer_surface_v1_destroy(proxy)
    }

    func configure(serial: UInt32, width: UInt32, height: UInt32) {
        zwlr_layer_surface_v1_ack_configure(proxy, serial)
        surface.roleConfigured(LayerSurface.configuredSize(width: width, height: height, requested: requestedSize))
    }

    func closed() {
        surface.roleClosed()
    }

    /// The anchor bits for one edge: a single anchor centres the surface along that edge.
    static func anchor(for edge: Edge) -> UInt32 {
        switch edge {
        case .left: ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue
        case .right: ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        case .top: ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue
        case .bottom: ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
        }
    }

    /// `on_demand` (2) exists from layer-shell v4; before that the value is a boolean where 1 means
    /// exclusive focus, which a slider must not grab: use `none` (0).
    static func keyboardInteractivity(shellVersion: UInt32, onDemand: Bool) -> UInt32 {
        onDemand && shellVersion >= 4
            ? ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue
            : ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue
    }

    /// The compositor's size, or the requested one in an axis where it sent 0 (its "you choose").
    static func configuredSize(width: UInt32, height: UInt32, requested: LogicalSize) -> LogicalSize {
        LogicalSize(width: width > 0 ? Int32(clamping: width) : max(requested.width, 1),
                    height: height > 0 ? Int32(clamping: height) : max(requested.height, 1))
    }
}
