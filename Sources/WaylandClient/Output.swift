// wl_output: its scale (integer HiDPI without fractional-scale-v1) and its refresh rate (how often
// the value stream is sampled while the compositor sends no frame callbacks).
internal import CWaylandClient

/// One bound `wl_output`: tracks its integer scale (applied on `done`, which groups the changes)
/// and its current refresh rate.
final class Output {
    private unowned let connection: WaylandConnection
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    /// The scale in effect (1 until told otherwise), within 1…`SurfaceScale.maximumFactor`.
    private(set) var scale: Int32 = 1
    private var pendingScale: Int32?
    /// The current mode's refresh rate in mHz (0: unknown).
    private(set) var refreshMillihertz: Int32 = 0
    /// The output name (v4), e.g. "HEADLESS-1", for logs.
    private(set) var name = ""
    /// Called after a `done` that changed the scale.
    var onScaleChange: ((Output) -> Void)?

    init(connection: WaylandConnection, registry: OpaquePointer, binding: GlobalBinding) {
        self.connection = connection
        let raw = wl_registry_bind(registry, binding.name, wlslider_wl_output_interface(), binding.version)
        proxy = OpaquePointer(raw!)
        globalName = binding.name
        version = binding.version
        wl_output_add_listener(proxy, Listeners.output, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // wl_output.release exists from version 3 on; older outputs can only be forgotten locally.
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    // MARK: Events (from Listeners.swift)

    func scaleEvent(_ factor: Int32) {
        pendingScale = factor
        // Version 1 has no `done`; version 2 introduced both `scale` and `done`, so this never waits.
    }

    /// A `mode` event: the current mode's refresh rate is kept (others are modes it could switch to).
    func modeEvent(flags: UInt32, refresh: Int32) {
        if let current = Output.currentRefresh(flags: flags, refresh: refresh) { refreshMillihertz = current }
    }

    /// The refresh rate (mHz, 0: unknown) a `mode` event sets, or nil for a mode that is not the
    /// current one. A negative rate means nothing: unknown.
    static func currentRefresh(flags: UInt32, refresh: Int32) -> Int32? {
        flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 ? max(refresh, 0) : nil
    }

    func nameEvent(_ name: String) {
        self.name = name
    }

    func done() {
        guard let pendingScale else { return }
        self.pendingScale = nil
        let (newScale, clamped) = SurfaceScale.integerOutputScale(pendingScale)
        if clamped {
            connection.warn("wl_output.scale \(pendingScale) on \(name.isEmpty ? "an output" : name) is beyond the "
                + "largest scale drawn at; drawing at \(newScale)", once: .outputScale)
        }
        guard newScale != scale else { return }
        scale = newScale
        onScaleChange?(self)
    }
}

/// How long a frame lasts, in milliseconds, from the refresh rates (mHz, 0: unknown) of the outputs
/// a surface entered, else of all outputs: the fastest one's, kept within 1–1000 Hz (a compositor
/// may announce any int32); 60 Hz when none is known.
func frameIntervalMilliseconds(entered: some Sequence<Int32>, allOutputs: some Sequence<Int32>) -> Double {
    let fastestEntered = entered.max() ?? 0
    let refresh = fastestEntered > 0 ? fastestEntered : allOutputs.max() ?? 0
    guard refresh > 0 else { return 1000.0 / 60 }
    return 1_000_000.0 / Double(min(max(refresh, 1000), 1_000_000))
}
