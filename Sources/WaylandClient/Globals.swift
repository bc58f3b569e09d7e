// Which globals wlslider binds and at which version. Pure: `planBindings` turns the advertised list
// into a bind plan or a one-line error, so it is tested without a compositor.

/// One global interface wlslider knows: the lowest version it can work with and the highest whose
/// events it handles (the generated headers bound that: a higher version could send events our
/// listener structs have no slot for).
struct GlobalSpec: Equatable, Sendable {
    let interface: String
    let minimum: UInt32
    let supported: UInt32
    let required: Bool

    // wl_compositor 4: wl_surface.damage_buffer. 5 only forbids attach offsets, which we never use;
    // 6 (preferred_buffer_scale) is beyond Debian 12's headers.
    static let compositor = GlobalSpec(interface: "wl_compositor", minimum: 4, supported: 5, required: true)
    static let shm = GlobalSpec(interface: "wl_shm", minimum: 1, supported: 1, required: true)
    // xdg_wm_base 1-5 differ only by events we handle (configure_bounds, wm_capabilities) or ignore.
    static let wmBase = GlobalSpec(interface: "xdg_wm_base", minimum: 1, supported: 5, required: true)
    // Layer-shell 4 adds keyboard interactivity on_demand; 1-3 work with interactivity "none".
    static let layerShell = GlobalSpec(interface: "zwlr_layer_shell_v1", minimum: 1, supported: 4, required: false)
    static let viewporter = GlobalSpec(interface: "wp_viewporter", minimum: 1, supported: 1, required: false)
    static let fractionalScale = GlobalSpec(interface: "wp_fractional_scale_manager_v1", minimum: 1, supported: 1, required: false)
    static let cursorShape = GlobalSpec(interface: "wp_cursor_shape_manager_v1", minimum: 1, supported: 1, required: false)
    // xdg-decoration 1 is the only version in wayland-protocols 1.31.
    static let decorationManager = GlobalSpec(interface: "zxdg_decoration_manager_v1", minimum: 1, supported: 1, required: false)
    // wl_seat 3: release requests; 5: pointer frames, axis source/stop/discrete; 8: axis_value120.
    // 9 is beyond Debian 12's headers.
    static let seat = GlobalSpec(interface: "wl_seat", minimum: 1, supported: 8, required: false)
    // wl_output 2: scale and done; 4: name and description.
    static let output = GlobalSpec(interface: "wl_output", minimum: 1, supported: 4, required: false)

    /// The interfaces bound once per connection, required ones first (in the order errors are reported).
    static let singletons: [GlobalSpec] = [compositor, shm, wmBase, layerShell, viewporter, fractionalScale, cursorShape,
                                           decorationManager]
}

/// A global as `wl_registry.global` announced it.
struct AdvertisedGlobal: Equatable, Sendable {
    let name: UInt32
    let interface: String
    let version: UInt32
}

/// A global to bind: its registry name and the negotiated version.
struct GlobalBinding: Equatable, Sendable {
    let name: UInt32
    let version: UInt32
}

/// What to bind after the initial roundtrip. The required globals are there by construction.
struct BindPlan: Equatable, Sendable {
    let compositor: GlobalBinding
    let shm: GlobalBinding
    let wmBase: GlobalBinding
    /// Interface name → binding, for every singleton offered at a usable version (required ones too).
    var singletons: [String: GlobalBinding] = [:]
    var seats: [GlobalBinding] = []
    var outputs: [GlobalBinding] = []
}

extension GlobalSpec {
    /// The version to bind when the compositor offers `offered` (nil: not offered): `min(offered,
    /// supported)`; nil for an optional global that is absent or too old; an error for a required one.
    func negotiate(offered: UInt32?) throws(WaylandError) -> UInt32? {
        guard let offered else {
            if required { throw .missingGlobal(interface, needed: minimum) }
            return nil
        }
        guard offered >= minimum else {
            if required { throw .versionTooOld(interface, needed: minimum, offered: offered) }
            return nil
        }
        return min(offered, supported)
    }
}

/// Plans the bindings for everything advertised. For a singleton advertised twice the first wins.
/// Throws the first missing or too old required global, in the order of `GlobalSpec.singletons`.
func planBindings(_ advertised: [AdvertisedGlobal]) throws(WaylandError) -> BindPlan {
    var singletons: [String: GlobalBinding] = [:]
    for spec in GlobalSpec.singletons {
        let offer = advertised.first { $0.interface == spec.interface }
        if let version = try spec.negotiate(offered: offer?.version), let offer {
            singletons[spec.interface] = GlobalBinding(name: offer.name, version: version)
        }
    }
    // negotiate threw for a required global that is missing or too old: these are all there.
    func required(_ spec: GlobalSpec) throws(WaylandError) -> GlobalBinding {
        guard let binding = singletons[spec.interface] else { throw .missingGlobal(spec.interface, needed: spec.minimum) }
        return binding
    }
    var plan = BindPlan(compositor: try required(.compositor), shm: try required(.shm), wmBase: try required(.wmBase))
    plan.singletons = singletons
    plan.seats = bindingsForEach(advertised, of: .seat)
    plan.outputs = bindingsForEach(advertised, of: .output)
    return plan
}

/// Bindings for a global that may be advertised many times (seats, outputs); unusable ones skipped.
func bindingsForEach(_ advertised: [AdvertisedGlobal], of spec: GlobalSpec) -> [GlobalBinding] {
    advertised.filter { $0.interface == spec.interface }.compactMap { offer in
        guard let version = try? spec.negotiate(offered: offer.version) else { return nil }
        return GlobalBinding(name: offer.name, version: version)
    }
}
