// The connection to the compositor: connect, the registry and its globals, version negotiation, and
// how the display fd takes part in the EventLoop (prepare_read / read_events / dispatch / flush).
import Posix
internal import CWaylandClient
internal import CWaylandProtocols
internal import Glibc

/// A bound singleton global: its proxy and the version it was bound with.
struct BoundGlobal {
    let proxy: OpaquePointer
    let version: UInt32
}

/// Owns the `wl_display`: disconnects when the last owner (the registry) goes away, so every proxy
/// is destroyed before the display.
final class DisplayHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        wl_display_disconnect(pointer)
    }
}

/// Receives `wl_registry` events. It exists before the connection object is complete (the first
/// roundtrip fills `advertised`), then forwards later events to the connection.
final class Registry {
    let proxy: OpaquePointer
    /// Kept so the display outlives this proxy.
    let display: DisplayHandle
    private(set) var advertised: [AdvertisedGlobal] = []
    /// The connection that owns this registry (unowned: see `SurfaceEntry`); nil until it is complete.
    unowned var connection: WaylandConnection?

    init(display: DisplayHandle) {
        self.display = display
        proxy = wl_display_get_registry(display.pointer)
        wl_registry_add_listener(proxy, Listeners.registry, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        wl_registry_destroy(proxy)
    }

    func global(name: UInt32, interface: String, version: UInt32) {
        let global = AdvertisedGlobal(name: name, interface: interface, version: version)
        // A name announced again (without global_remove) replaces its first announcement.
        advertised.removeAll { $0.name == name }
        advertised.append(global)
        connection?.globalAdded(global)
    }

    func globalRemove(name: UInt32) {
        advertised.removeAll { $0.name == name }
        connection?.globalRemoved(name: name)
    }
}

/// A connection to a Wayland compositor with the globals wlslider needs bound.
///
/// Connecting binds every global at `min(advertised, supported)`; `wl_compositor` ≥ 4, `wl_shm` and
/// `xdg_wm_base` are required. Layer-shell, viewporter, fractional scale, cursor shape,
/// xdg-decoration, seats and outputs are optional. After `attach(to:)` the connection reads and dispatches events inside the
/// loop; a lost connection or a protocol error makes `EventLoop.run()` throw a `WaylandError`.
public final class WaylandConnection {
    let display: OpaquePointer
    private let registry: Registry
    let compositor: BoundGlobal
    let shm: BoundGlobal
    let wmBase: BoundGlobal
    let layerShell: BoundGlobal?
    let viewporter: BoundGlobal?
    let fractionalScaleManager: BoundGlobal?
    let cursorShapeManager: BoundGlobal?
    let decorationManager: BoundGlobal?
    /// Whether `wl_subcompositor` was advertised (libdecor draws its title bar in subsurfaces).
    private let hasSubcompositor: Bool
    /// How toplevels are decorated: decided by the first toplevel (see Decorations.swift).
    private(set) var decorationRoute: DecorationRoute?
    /// The libdecor context, once a toplevel needed one.
    private var libdecorContext: LibdecorContext?
    /// Where it is connected, for messages ("wayland-1").
    private let description: String
    private(set) var seats: [UInt32: Seat] = [:]
    private(set) var outputs: [UInt32: Output] = [:]
    /// Live surfaces by their wl_surface pointer, so input events find the surface they are for.
    /// A surface leaves it first thing in its deinit.
    private var surfaces: [UInt: SurfaceEntry] = [:]
    private var cursorImages: CursorImages?
    private(set) weak var loop: EventLoop?
    /// Receives one line for each kind of problem that is survived rather than fatal (a keymap
    /// that does not compile, a nonsensical scale or size from the compositor), once per kind:
    /// print it on stderr. Warnings raised while connecting are delivered when it is set.
    public var onWarning: ((String) -> Void)? {
        didSet {
            guard let onWarning else { return }
            for message in warnings.takeHeld() { onWarning(message) }
        }
    }
    private var warnings = WarningLog()
    private var displaySource: EventLoop.SourceToken?
    private var readPrepared = false

    /// How long connecting (the roundtrip for the globals) may take, unless the caller says otherwise.
    public static let connectTimeoutMilliseconds: Int32 = 5000

    /// Connects to `displayName` (nil: `WAYLAND_DISPLAY`/`WAYLAND_SOCKET`, as `wl_display_connect`
    /// does) and binds the globals. Their initial state (a seat's capabilities, an output's modes
    /// and scale) arrives with the next events dispatched, before a new surface's first configure.
    ///
    /// A compositor that accepts the connection and never answers makes it throw `.timedOut` after
    /// `timeoutMilliseconds`; `interruption` (a signalfd, say) becoming readable meanwhile makes it
    /// throw `.interrupted` at once, so SIGTERM works while connecting.
    public init(displayName: String? = nil, timeoutMilliseconds: Int32 = connectTimeoutMilliseconds,
                interruption: Descriptor? = nil) throws(WaylandError) {
        wlslider_silence_wayland_log()
        guard let display = wl_display_connect(displayName) else {
            throw WaylandConnection.connectFailure(displayName, errno: .current)
        }
        // On a throw below, the registry and then the display are released in that order.
        let registry = Registry(display: DisplayHandle(display))
        description = WaylandConnection.displayDescription(displayName)
        let wait = RoundtripWait(display: display, timeoutMilliseconds: timeoutMilliseconds, interruption: interruption,
                                 name: description)
        try wait.roundtrip(while: "waiting for its globals")
        let plan = try planBindings(registry.advertised)
        func bind(_ binding: GlobalBinding, _ interface: UnsafePointer<wl_interface>) throws(WaylandError) -> BoundGlobal {
            // wl_registry_bind fails only when libwayland cannot allocate the proxy.
            guard let raw = wl_registry_bind(registry.proxy, binding.name, interface, binding.version) else {
                throw .systemCall("wl_registry_bind", errno: .current, while: "binding \(String(cString: interface.pointee.name))")
            }
            return BoundGlobal(proxy: OpaquePointer(raw), version: binding.version)
        }
        func bind(_ spec: GlobalSpec, _ interface: UnsafePointer<wl_interface>) throws(WaylandError) -> BoundGlobal? {
            guard let binding = plan.singletons[spec.interface] else { return nil }
            return try bind(binding, interface)
        }
        self.display = display
        self.registry = registry
        compositor = try bind(plan.compositor, wlslider_wl_compositor_interface())
        shm = try bind(plan.shm, wlslider_wl_shm_interface())
        wmBase = try bind(plan.wmBase, wlslider_xdg_wm_base_interface())
        layerShell = try bind(.layerShell, wlslider_zwlr_layer_shell_v1_interface())
        viewporter = try bind(.viewporter, wlslider_wp_viewporter_interface())
        fractionalScaleManager = try bind(.fractionalScale, wlslider_wp_fractional_scale_manager_v1_interface())
        cursorShapeManager = try bind(.cursorShape, wlslider_wp_cursor_shape_manager_v1_interface())
        decorationManager = try bind(.decorationManager, wlslider_zxdg_decoration_manager_v1_interface())
        hasSubcompositor = registry.advertised.contains { $0.interface == "wl_subcompositor" }
        xdg_wm_base_add_listener(wmBase.proxy, Listeners.wmBase, Unmanaged.passUnretained(self).toOpaque())
        registry.connection = self
        for binding in plan.seats { addSeat(binding) }
        for binding in plan.outputs { addOutput(binding) }
        // No second roundtrip for the seats' and outputs' state: the compositor answers the binds
        // before it answers anything sent after them, so that state is in by the time a surface's
        // first configure is, and the first frame comes one roundtrip sooner.
    }

    deinit {
        if let displaySource { loop?.removeSource(displaySource) }
        if readPrepared { wl_display_cancel_read(display) }
        seats.removeAll()
        outputs.removeAll()
        cursorImages = nil
        // Surfaces hold the connection, so no decorated frame is left; this unrefs the context.
        libdecorContext = nil
        destroyGlobals()
        // `registry` goes next and takes the display with it.
    }

    // MARK: Public API

    /// Whether `zwlr_layer_shell_v1` is offered: without it, edge mode falls back to a toplevel.
    public var hasLayerShell: Bool { layerShell != nil }
    /// Whether surfaces scale with `wp_fractional_scale_v1` + `wp_viewporter`.
    public var hasFractionalScale: Bool { fractionalScaleManager != nil && viewporter != nil }

    /// Lets `loop` read, dispatch and flush this connection. Call once.
    public func attach(to loop: EventLoop) {
        precondition(displaySource == nil, "WaylandConnection.attach(to:) called twice")
        self.loop = loop
        displaySource = loop.addSource(fd: wl_display_get_fd(display),
                                       prepare: { [unowned self] in try self.prepareRead() },
                                       handler: { [unowned self] in try self.completeRead($0) })
        for seat in seats.values { seat.loopAttached() }
        libdecorContext?.attach(to: loop)
    }

    /// Sends queued requests now (the loop does this before each poll; call it before exiting).
    public func flush() {
        _ = wl_display_flush(display)
    }

    /// Creates a surface with `role`. Throws for `.layer` without layer-shell (check `hasLayerShell`).
    public func makeSurface(role: SurfaceRole, delegate: (any SliderSurfaceDelegate)?) throws(WaylandError) -> SliderSurface {
        try SliderSurface(connection: self, role: role, delegate: delegate)
    }

    // MARK: Globals

    func globalAdded(_ global: AdvertisedGlobal) {
        // A name announced again without a global_remove first (a protocol violation) replaces what
        // was bound under it as if it had been removed: otherwise a gesture of the old seat's touch
        // would never end, and surfaces would keep the old output alive.
        globalRemoved(name: global.name)
        if let binding = bindingsForEach([global], of: .seat).first { addSeat(binding) }
        if let binding = bindingsForEach([global], of: .output).first { addOutput(binding) }
    }

    func globalRemoved(name: UInt32) {
        if let seat = seats.removeValue(forKey: name) { seat.removeAllDevices() }
        if let output = outputs.removeValue(forKey: name) {
            for surface in liveSurfaces { surface.outputRemoved(output) }
        }
    }

    private func addSeat(_ binding: GlobalBinding) {
        seats[binding.name] = Seat(connection: self, registry: registry.proxy, binding: binding)
    }

    private func addOutput(_ binding: GlobalBinding) {
        let output = Output(connection: self, registry: registry.proxy, binding: binding)
        output.onScaleChange = { [unowned self] _ in
            for surface in liveSurfaces { surface.outputsChanged() }
        }
        outputs[binding.name] = output
    }

    private func destroyGlobals() {
        // Protocol objects that have a destructor request get it; the rest are forgotten locally.
        if let decorationManager { zxdg_decoration_manager_v1_destroy(decorationManager.proxy) }
        if let cursorShapeManager { wp_cursor_shape_manager_v1_destroy(cursorShapeManager.proxy) }
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager.proxy) }
        if let viewporter { wp_viewporter_destroy(viewporter.proxy) }
        if let layerShell {
            // zwlr_layer_shell_v1.destroy exists from version 3 on.
            if layerShell.version >= 3 { zwlr_layer_shell_v1_destroy(layerShell.proxy) } else { wl_proxy_destroy(layerShell.proxy) }
        }
        xdg_wm_base_destroy(wmBase.proxy)
        wl_shm_destroy(shm.proxy)
        wl_compositor_destroy(compositor.proxy)
    }

    /// The libdecor context to decorate a toplevel with, when libdecor is the route here (nil: the
    /// compositor decorates, or nothing does). The first call chooses the route, loading libdecor
    /// only when the compositor offers no xdg-decoration, and reports an undecorated window once.
    func libdecorForToplevel() -> LibdecorContext? {
        if decorationRoute == nil {
            let route = DecorationRoute.choose(decorationManager: decorationManager != nil, subcompositor: hasSubcompositor,
                                               loadLibdecor: DecorationRoute.loadLibdecor)
            decorationRoute = route
            if case .undecorated(let notice?) = route { warn(notice, once: .decorations) }
        }
        guard decorationRoute == .libdecor else { return nil }
        if libdecorContext == nil {
            guard let context = LibdecorContext(display: registry.display, connection: self) else {
                warn("libdecor: no context could be created; the window has no title bar", once: .decorations)
                return nil
            }
            // Before anything can end the context: see `LibdecorContext.waitForPluginGlobals`.
            do {
                try context.waitForPluginGlobals(RoundtripWait(display: display, timeoutMilliseconds: Self.connectTimeoutMilliseconds,
                                                               interruption: nil, name: description))
            } catch {
                warn("libdecor: \(error.description); the window has no title bar", once: .decorations)
                return nil
            }
            libdecorContext = context
            if let loop { context.attach(to: loop) }
        }
        return libdecorContext
    }

    /// The cursor setter, created on first use (most runs never see a pointer).
    var cursors: CursorImages {
        if let cursorImages { return cursorImages }
        let created = CursorImages(connection: self)
        cursorImages = created
        return created
    }

    /// Reports a survived problem through `onWarning`, unless `topic` was reported already.
    func warn(_ message: String, once topic: WarningTopic) {
        guard warnings.isNews(topic) else { return }
        if let onWarning { onWarning(message) } else { warnings.hold(message) }
    }

    /// The problem of `topic` went away: its next occurrence is reported again.
    func resolved(_ topic: WarningTopic) {
        warnings.resolved(topic)
    }

    func ping(serial: UInt32) {
        xdg_wm_base_pong(wmBase.proxy, serial)
    }

    /// Refresh rates (mHz, 0 unknown) of every output (for a surface that has not entered one yet).
    var outputRefreshRates: LazyMapSequence<Dictionary<UInt32, Output>.Values, Int32> { outputs.values.lazy.map(\.refreshMillihertz) }

    /// Scales of every output (for a surface that has not entered one yet).
    var outputScales: [Int32] { outputs.values.map(\.scale) }

    func output(for proxy: OpaquePointer?) -> Output? {
        outputs.values.first { $0.proxy == proxy }
    }

    // MARK: Surfaces

    func register(_ surface: SliderSurface) {
        surfaces[UInt(bitPattern: surface.proxy)] = SurfaceEntry(surface)
    }

    func unregister(_ proxy: OpaquePointer) {
        surfaces[UInt(bitPattern: proxy)] = nil
        for seat in seats.values { seat.touch?.surfaceGone(proxy) }
    }

    /// The SliderSurface behind a wl_surface an input event names (nil: not one of ours, or gone).
    func surface(for proxy: OpaquePointer?) -> SliderSurface? {
        guard let proxy else { return nil }
        return surfaces[UInt(bitPattern: proxy)]?.surface
    }

    private var liveSurfaces: [SliderSurface] { surfaces.values.map(\.surface) }

    // MARK: Reading and dispatching inside the loop

    /// Before poll: dispatch what is queued until a read can be prepared, then flush. EAGAIN on flush
    /// (socket full) → also wait for POLLOUT. EPIPE is not fatal yet: libwayland leaves it so we can
    /// still read the compositor's last words (often a protocol error) before reporting.
    private func prepareRead() throws(WaylandError) -> EventLoop.Events {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw connectionError(while: "dispatching events") }
        }
        readPrepared = true
        if wl_display_flush(display) < 0 {
            let code = Errno.current
            if code == .wouldBlock { return [.readable, .writable] }
            if code != .brokenPipe {
                wl_display_cancel_read(display)
                readPrepared = false
                throw connectionError(while: "sending requests")
            }
        }
        return .readable
    }

    /// After poll (called every time): read or cancel the prepared read, dispatch, flush if writable.
    private func completeRead(_ events: EventLoop.Events) throws(WaylandError) {
        if readPrepared {
            readPrepared = false
            if !events.isDisjoint(with: [.readable, .hangup, .error, .invalid]) {
                if wl_display_read_events(display) < 0 { throw connectionError(while: "reading events") }
            } else {
                wl_display_cancel_read(display)
            }
        }
        if wl_display_dispatch_pending(display) < 0 { throw connectionError(while: "dispatching events") }
        if events.contains(.writable), wl_display_flush(display) < 0, Errno.current != .wouldBlock, Errno.current != .brokenPipe {
            throw connectionError(while: "sending requests")
        }
    }

    /// The display's error as one line: the protocol error (interface, object id, code) if the
    /// compositor sent one, else the errno of the broken connection.
    func connectionError(while doing: String) -> WaylandError {
        WaylandConnection.connectionError(display, while: doing)
    }

    static func connectionError(_ display: OpaquePointer, while doing: String) -> WaylandError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "an unknown interface"
            return WaylandError(.protocolError, "the compositor reported protocol error \(error) on \(name)@\(id) (while \(doing))")
        }
        let reason = code == 0 ? "the compositor closed the connection" : Errno(code).description
        return WaylandError(.connectionLost, "lost the connection to the compositor while \(doing): \(reason)")
    }

    /// Where `wl_display_connect(name)` connects, for messages: "wayland-1", or "WAYLAND_SOCKET=5".
    static func displayDescription(_ name: String?) -> String {
        switch DisplayTarget(name: name) {
        case .inheritedSocket(let socket): "WAYLAND_SOCKET=\(socket)"
        case .socket(let target): target
        }
    }

    /// Why `wl_display_connect(name)` failed, in one line. The environment is read unless given.
    static func connectFailure(_ name: String?, errno code: Errno,
                               socket: String? = environmentVariable("WAYLAND_SOCKET"),
                               display: String? = environmentVariable("WAYLAND_DISPLAY"),
                               runtimeDirectory: String? = environmentVariable("XDG_RUNTIME_DIR")) -> WaylandError {
        // libwayland leaves errno as it found it when it gives no reason (WAYLAND_SOCKET=abc).
        let reason = code == Errno(0) ? "no reason given" : "\(code)"
        switch DisplayTarget(name: name, socket: socket, display: display) {
        case .inheritedSocket(let socket):
            guard let number = Int32(socket), number >= 0 else {
                return WaylandError(.connectionFailed, "cannot use the Wayland connection WAYLAND_SOCKET=\(socket): not a descriptor number")
            }
            return WaylandError(.connectionFailed, "cannot use the Wayland connection WAYLAND_SOCKET=\(number): \(reason)")
        case .socket(let target):
            if runtimeDirectory == nil && !target.hasPrefix("/") {
                return WaylandError(.connectionFailed, "cannot connect to the Wayland compositor at \(target): XDG_RUNTIME_DIR is not set")
            }
            return WaylandError(.connectionFailed, "cannot connect to the Wayland compositor at \(target): \(reason)")
        }
    }
}

/// Which connection `wl_display_connect(name)` makes, as libwayland chooses it: the descriptor in
/// WAYLAND_SOCKET when that is set, whatever the name; else the socket `name`, WAYLAND_DISPLAY or
/// `wayland-0` (under XDG_RUNTIME_DIR unless it is a path).
enum DisplayTarget: Equatable {
    /// WAYLAND_SOCKET's value: a descriptor number, if it is one.
    case inheritedSocket(String)
    /// A socket name or path.
    case socket(String)

    init(name: String?, socket: String? = environmentVariable("WAYLAND_SOCKET"),
         display: String? = environmentVariable("WAYLAND_DISPLAY")) {
        if let socket {
            self = .inheritedSocket(socket)
        } else {
            self = .socket(name ?? display ?? "wayland-0")
        }
    }
}

/// A surface in the connection's lookup table, which it leaves in its deinit. Unowned, not weak:
/// a weak reference gives its object a side table in the Swift runtime, and from then on every
/// retain and release of it (several a frame, for a surface) takes the runtime's slow path.
struct SurfaceEntry {
    unowned let surface: SliderSurface
    init(_ surface: SliderSurface) { self.surface = surface }
}

/// `wl_display_roundtrip` with a deadline and an interruption: a `wl_display.sync` whose `done` is
/// awaited in a poll on the display and on `interruption`, so neither a compositor that never
/// answers nor a signal can leave the connect hanging.
final class RoundtripWait {
    private let display: OpaquePointer
    private let deadline: MonotonicInstant
    private let timeoutMilliseconds: Int32
    private let interruption: Descriptor?
    private let name: String
    private var done = false

    init(display: OpaquePointer, timeoutMilliseconds: Int32, interruption: Descriptor?, name: String) {
        self.display = display
        self.name = name
        self.timeoutMilliseconds = timeoutMilliseconds
        deadline = MonotonicInstant.now().advanced(byMilliseconds: Double(timeoutMilliseconds))
        self.interruption = interruption
    }

    /// Sends a sync and dispatches events until the compositor answers it.
    func roundtrip(while doing: String) throws(WaylandError) {
        done = false
        guard let callback = wl_display_sync(display) else { throw lost(doing) }
        defer { wl_callback_destroy(callback) }
        wl_callback_add_listener(callback, Listeners.syncCallback, Unmanaged.passUnretained(self).toOpaque())
        while !done {
            try waitAndDispatch(doing)
        }
    }

    func syncDone() {
        done = true
    }

    private func waitAndDispatch(_ doing: String) throws(WaylandError) {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw lost(doing) }
            if done { return }
        }
        var events = Int16(POLLIN)
        if wl_display_flush(display) < 0 {
            let code = Errno.current
            if code == .wouldBlock {
                events |= Int16(POLLOUT)
            } else if code != .brokenPipe {
                wl_display_cancel_read(display)
                throw lost(doing)
            }
        }
        var fds = [pollfd(fd: wl_display_get_fd(display), events: events, revents: 0),
                   pollfd(fd: interruption?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)]
        let timeout = EventLoop.pollTimeout(now: .now(), deadline: deadline)
        let ready = fds.withUnsafeMutableBufferPointer { fds in
            retryingInterrupts { poll(fds.baseAddress, nfds_t(fds.count), timeout) }
        }
        if fds[1].revents != 0 {
            wl_display_cancel_read(display)
            throw WaylandError(.interrupted, "interrupted while \(doing)")
        }
        if case .failure(let error) = ready {
            wl_display_cancel_read(display)
            throw .systemCall("poll", errno: error, while: doing)
        }
        if fds[0].revents == 0 {
            wl_display_cancel_read(display)
            if MonotonicInstant.now() >= deadline {
                throw WaylandError(.timedOut, "the compositor at \(name) did not answer within \(timeoutMilliseconds) ms (while \(doing))")
            }
            return
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            if wl_display_read_events(display) < 0 { throw lost(doing) }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { throw lost(doing) }
    }

    private func lost(_ doing: String) -> WaylandError {
        WaylandConnection.connectionError(display, while: doing)
    }
}
