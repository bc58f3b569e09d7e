// The slider's wl_surface: its role, scale, frame callbacks, buffers and the order of requests that
// present a frame. Decisions (what to draw, when to animate) stay with the app.
import Posix
internal import CWaylandClient
internal import CWaylandProtocols

/// A screen edge, for layer-shell (edge mode).
public enum Edge: Equatable, Sendable {
    /// The left screen edge (a vertical slider).
    case left
    /// The right screen edge (a vertical slider).
    case right
    /// The top screen edge (a horizontal slider).
    case top
    /// The bottom screen edge (a horizontal slider).
    case bottom
}

/// What kind of window the slider is.
public enum SurfaceRole: Equatable, Sendable {
    /// An ordinary window (`xdg_toplevel`). A configured size of 0 in an axis means "choose": then
    /// `preferredSize` is used.
    case toplevel(title: String, appID: String, preferredSize: LogicalSize)
    /// A `zwlr_layer_surface_v1` on the overlay layer anchored to `edge` and centred along it,
    /// namespace "wlslider", exclusive zone 0 (reserves no space). `keyboardOnDemand` asks for
    /// keyboard focus when clicked (layer-shell v4; older versions get no keyboard focus).
    case layer(edge: Edge, size: LogicalSize, keyboardOnDemand: Bool)
}

/// What the surface tells the app. All calls happen inside `EventLoop.run()` on its thread.
/// Input methods have empty default implementations.
public protocol SliderSurfaceDelegate: AnyObject {
    /// The surface is to be drawn at `logicalSize`: the compositor configured it (first time, or a
    /// new size), or a new scale changed what `BufferLimits` allows of a huge configured size. Present
    /// a frame of this size. Configures that keep the size are acknowledged and committed without
    /// bothering the app.
    func surface(_ surface: SliderSurface, configured logicalSize: LogicalSize)
    /// The user or compositor closed the window (`xdg_toplevel.close`, `zwlr_layer_surface_v1.closed`).
    func surfaceClosed(_ surface: SliderSurface)
    /// The scale changed: repaint everything at `surface.bufferSize` (buffer ages were reset to 0).
    /// It may come before the first configure: then only remember it (present after `configured`).
    func surface(_ surface: SliderSurface, scaleChanged scale: SurfaceScale)
    /// The frame callback requested with `present(requestingFrame: true)` or `requestFrame()` fired;
    /// `timeMs` is the compositor's timestamp in milliseconds (monotonic, arbitrary base).
    func surface(_ surface: SliderSurface, frameDone timeMs: UInt32)
    /// A batch of touch events (one `wl_touch.frame`), or a lone `.cancel`.
    func surface(_ surface: SliderSurface, touch batch: [TouchEvent])
    /// A batch of pointer events (one `wl_pointer.frame`).
    func surface(_ surface: SliderSurface, pointer batch: [PointerEvent])
    /// A keyboard event while the surface has keyboard focus.
    func surface(_ surface: SliderSurface, keyboard event: KeyboardEvent)
}

extension SliderSurfaceDelegate {
    /// Ignores touch.
    public func surface(_ surface: SliderSurface, touch batch: [TouchEvent]) {}
    /// Ignores the pointer.
    public func surface(_ surface: SliderSurface, pointer batch: [PointerEvent]) {}
    /// Ignores the keyboard.
    public func surface(_ surface: SliderSurface, keyboard event: KeyboardEvent) {}
}

/// The buffer `present` hands to its draw closure next to its bytes (a `MutableRawSpan` valid only
/// inside the closure). Format: premultiplied ARGB8888 (`WL_SHM_FORMAT_ARGB8888`), one native-endian
/// UInt32 per pixel.
public struct PixelBuffer: Sendable {
    /// Size in pixels.
    public let size: PixelSize
    /// Bytes from one row to the next.
    public let stride: Int32
    /// How many presents ago this buffer's content was drawn: 1 = it holds the last presented frame,
    /// 2 = the one before, ...; 0 = unknown content (repaint everything).
    public let age: Int
    /// The scale the buffer is for.
    public let scale: SurfaceScale
}

/// What `present` did.
public enum PresentResult: Equatable, Sendable {
    /// The frame was committed.
    case presented
    /// The draw closure returned no damage: nothing was committed (a requested frame callback was
    /// still requested).
    case nothingDamaged
    /// The compositor holds every buffer (`BufferSet.maximumCount`): nothing was drawn. A frame
    /// callback is requested as soon as it releases one, so the app gets a `frameDone` to try
    /// again; none before, since asking sooner would only poll for the release.
    case buffersBusy
}

/// The slider's surface: a `wl_surface` with a toplevel or layer role, HiDPI handling, shm buffers
/// and frame callbacks. Create it with `WaylandConnection.makeSurface(role:delegate:)`.
public final class SliderSurface {
    /// Receives configure, close, scale, frame and input events. Not retained, and unowned rather
    /// than weak: a weak reference would put every retain and release of the delegate on the Swift
    /// runtime's slow path (see `SurfaceEntry`). The delegate must outlive the events it is sent,
    /// as one that owns the surface does; set it to nil before letting go of it otherwise.
    public unowned var delegate: (any SliderSurfaceDelegate)?
    let connection: WaylandConnection
    let proxy: OpaquePointer
    private var roleObject: AnyObject?
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    private var frameCallback: OpaquePointer?
    private var enteredOutputs: [Output] = []
    private var pool: ShmPool?
    private var bufferSet = BufferSet()
    /// The buffers `bufferSet` tracks, by their ids: a handful, so a list searched in order (a
    /// dictionary would hash an id at every frame).
    private var buffers: [ShmBuffer] = []
    /// What was last sent: buffer scale (integer mode) or viewport destination (fractional mode).
    private var sentBufferScale: Int32 = 1
    private var sentViewportSize: LogicalSize?
    private var hasPresented = false
    /// Every buffer was busy at the last present: ask for a frame when one is released.
    private var frameOnRelease = false

    /// The size to draw at (valid once `isConfigured`): the size the compositor configured, cut to
    /// what `BufferLimits` allows at the current scale.
    public private(set) var logicalSize = LogicalSize(width: 0, height: 0)
    /// The size the compositor configured (its 0s replaced by the preferred size), before the cut.
    private var configuredSize: LogicalSize?
    /// The scale to render at.
    public private(set) var scale: SurfaceScale
    /// Whether the first configure arrived (presenting before it is a protocol error).
    public private(set) var isConfigured = false
    /// The role it was created with.
    public let role: SurfaceRole

    init(connection: WaylandConnection, role: SurfaceRole, delegate: (any SliderSurfaceDelegate)?) throws(WaylandError) {
        self.connection = connection
        self.role = role
        self.delegate = delegate
        proxy = wl_compositor_create_surface(connection.compositor.proxy)
        scale = connection.hasFractionalScale
            ? SurfaceScale(fractional: 120)
            : SurfaceScale(integer: integerScale(entered: [], allOutputs: connection.outputScales))
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_surface_add_listener(proxy, Listeners.surface, me)
        if let viewporter = connection.viewporter, let manager = connection.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter.proxy, proxy)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager.proxy, proxy)
            wp_fractional_scale_v1_add_listener(fractionalScale, Listeners.fractionalScale, me)
        }
        connection.register(self)
        let roleObject = try makeRoleObject(role)
        self.roleObject = roleObject
        // The initial commit without a buffer asks for the first configure (libdecor makes it
        // itself, in libdecor_frame_map, once its xdg_surface exists).
        if !(roleObject is LibdecorToplevel) { wl_surface_commit(proxy) }
    }

    deinit {
        connection.unregister(proxy)
        if let frameCallback { wl_callback_destroy(frameCallback) }
        roleObject = nil
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        buffers.removeAll()
        pool = nil
        wl_surface_destroy(proxy)
    }

    private func makeRoleObject(_ role: SurfaceRole) throws(WaylandError) -> AnyObject {
        switch role {
        case let .toplevel(title, appID, preferredSize):
            if let context = connection.libdecorForToplevel(),
               let decorated = LibdecorToplevel(context: context, surface: self, title: title, appID: appID,
                                                preferredSize: preferredSize) {
                return decorated
            }
            return Toplevel(wmBase: connection.wmBase.proxy, surface: self, title: title, appID: appID,
                            preferredSize: preferredSize, decorationManager: connection.decorationManager?.proxy)
        case let .layer(edge, size, keyboardOnDemand):
            guard let shell = connection.layerShell else { throw .missingGlobal("zwlr_layer_shell_v1", needed: 1) }
            return LayerSurface(shell: shell, surface: self, edge: edge, size: size, keyboardOnDemand: keyboardOnDemand)
        }
    }

    // MARK: Public API

    /// The buffer size for the current logical size and scale.
    public var bufferSize: PixelSize { scale.bufferSize(for: logicalSize) }

    /// How long a frame lasts on the outputs showing the surface, in milliseconds: from the fastest
    /// refresh rate among the outputs it entered (before it entered one, among all outputs), kept
    /// within 1–1000 Hz; 60 Hz when no output says.
    public var frameIntervalMilliseconds: Double {
        // Lazily: asked every frame, so without building arrays.
        WaylandClient.frameIntervalMilliseconds(entered: enteredOutputs.lazy.map { $0.refreshMillihertz },
                                                allOutputs: connection.outputRefreshRates)
    }

    /// Asks for a frame callback without new content (frame + commit); no effect if one is pending.
    public func requestFrame() {
        guard frameCallback == nil else { return }
        addFrameCallback()
        wl_surface_commit(proxy)
    }

    /// Draws and presents one frame. `draw` gets the bytes of a free buffer of `bufferSize` (never
    /// one the compositor holds) and what it is (size, stride, age), draws what changed since that
    /// age and returns the damaged rectangle in buffer pixels (nil: nothing). Then, in this order:
    /// `damage_buffer`, `frame` (when `requestingFrame` and none is pending), `attach`, `commit`.
    /// Traps when called before the first configure (a programmer error).
    @discardableResult
    public func present(requestingFrame: Bool = false,
                        draw: (inout MutableRawSpan, PixelBuffer) -> BufferRect?) throws(WaylandError) -> PresentResult {
        precondition(isConfigured, "SliderSurface.present before the first configure")
        let size = bufferSize
        guard let buffer = try acquireBuffer(size) else {
            // A frame callback now would poll: a compositor that holds every buffer and answers
            // callbacks at once would keep us committing frame requests as fast as it answers.
            frameOnRelease = true
            return .buffersBusy
        }
        let info = PixelBuffer(size: size, stride: buffer.stride, age: bufferSet.age(of: buffer.id), scale: scale)
        var bytes = buffer.bytes.mutableBytes
        guard let damage = draw(&bytes, info)?.clamped(to: size) else {
            bufferSet.abandoned(buffer.id)
            if requestingFrame { requestFrame() }
            return .nothingDamaged
        }
        sendScaleState()
        wl_surface_damage_buffer(proxy, damage.x, damage.y, damage.width, damage.height)
        if requestingFrame && frameCallback == nil { addFrameCallback() }
        wl_surface_attach(proxy, buffer.proxy, 0, 0)
        wl_surface_commit(proxy)
        bufferSet.presented(buffer.id)
        hasPresented = true
        return .presented
    }

    /// Sets where the surface takes input, in logical coordinates (nil = the whole surface); an empty
    /// array lets all input through. Takes effect with the next commit or present.
    public func setInputRegion(_ rects: [LogicalRect]?) {
        guard let rects else {
            wl_surface_set_input_region(proxy, nil)
            return
        }
        let region = wl_compositor_create_region(connection.compositor.proxy)
        for rect in rects { wl_region_add(region, rect.x, rect.y, rect.width, rect.height) }
        wl_surface_set_input_region(proxy, region)
        wl_region_destroy(region)
    }

    /// Commits pending state (e.g. an input region) without a new buffer.
    public func commit() {
        wl_surface_commit(proxy)
    }

    // MARK: Buffers

    /// Forgets the buffer with `id` (destroying it once nothing else holds it).
    private func dropBuffer(_ id: Int) {
        buffers.removeAll { $0.id == id }
    }

    /// A free buffer of `size` (reused or new), or nil when all buffers are busy.
    private func acquireBuffer(_ size: PixelSize) throws(WaylandError) -> ShmBuffer? {
        let (choice, dropped) = bufferSet.acquire(size: size)
        for id in dropped { dropBuffer(id) }
        switch choice {
        case let .reuse(id, _): return buffers.first { $0.id == id }
        case .exhausted: return nil
        case .allocate: break
        }
        let (_, length) = try ShmPool.layout(size)
        // Room for two buffers from the start: the second comes with the second frame.
        let pool: ShmPool
        if let existing = self.pool {
            pool = existing
        } else {
            pool = try ShmPool(shm: connection.shm.proxy, capacity: min(2 * length, ShmPool.maximumCapacity))
            self.pool = pool
        }
        let buffer = try pool.makeBuffer(size: size)
        buffer.id = bufferSet.add(size: size)
        // Unowned: the surface owns its buffers, and a buffer gone takes its listener with it.
        buffer.onRelease = { [unowned self] in self.bufferReleased($0) }
        buffers.append(buffer)
        return buffer
    }

    private func bufferReleased(_ buffer: ShmBuffer) {
        if bufferSet.released(buffer.id) { dropBuffer(buffer.id) }
        if frameOnRelease {
            frameOnRelease = false
            requestFrame()
        }
    }

    // MARK: Frame callbacks

    private func addFrameCallback() {
        guard frameCallback == nil else { return }
        let callback = wl_surface_frame(proxy)
        wl_proxy_add_dispatcher(callback, Dispatchers.frameCallback, Unmanaged.passUnretained(self).toOpaque(), nil)
        frameCallback = callback
    }

    func frameDone(time: UInt32) {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        delegate?.surface(self, frameDone: time)
    }

    // MARK: Role events (from Toplevel / LayerSurface, after they acknowledged the configure)

    /// The role acknowledged a configure to `size` (at least 1×1).
    func roleConfigured(_ size: LogicalSize) {
        configuredSize = size
        let drawn = drawableSize(size)
        guard !isConfigured || drawn != logicalSize else {
            // Same size: the acknowledgement takes effect with a commit; nothing to redraw.
            if hasPresented { wl_surface_commit(proxy) }
            return
        }
        logicalSize = drawn
        isConfigured = true
        bufferSet.invalidateContents()
        delegate?.surface(self, configured: drawn)
    }

    /// `size` cut to what `BufferLimits` allows at the current scale, with a warning when cut.
    private func drawableSize(_ size: LogicalSize) -> LogicalSize {
        let drawn = scale.fittingLogicalSize(size)
        if drawn != size {
            connection.warn("the compositor asks for a \(size) surface, too large to draw at scale \(scale) (buffers are kept "
                + "within \(BufferLimits.maximumSide) pixels a side and \(BufferLimits.maximumBytes >> 20) MiB); drawing \(drawn)",
                once: .surfaceSize)
        }
        return drawn
    }

    func roleClosed() {
        delegate?.surfaceClosed(self)
    }

    // MARK: Scale

    /// Fractional mode: buffer scale stays 1 and the viewport maps the buffer onto the logical size.
    /// Integer mode: `set_buffer_scale`. Sent before damage, so it applies with the same commit.
    private func sendScaleState() {
        if let viewport {
            if sentViewportSize != logicalSize {
                wp_viewport_set_destination(viewport, logicalSize.width, logicalSize.height)
                sentViewportSize = logicalSize
            }
        } else if sentBufferScale != scale.integerCeiling {
            wl_surface_set_buffer_scale(proxy, scale.integerCeiling)
            sentBufferScale = scale.integerCeiling
        }
    }

    /// A new scale. When the configured size no longer fits `BufferLimits` at it (or fits again),
    /// the app gets the new size first, then the scale.
    private func updateScale(_ newScale: SurfaceScale) {
        guard newScale != scale else { return }
        scale = newScale
        bufferSet.invalidateContents()
        if isConfigured, let configuredSize {
            let drawn = drawableSize(configuredSize)
            if drawn != logicalSize {
                logicalSize = drawn
                delegate?.surface(self, configured: drawn)
            }
        }
        delegate?.surface(self, scaleChanged: newScale)
    }

    private func updateIntegerScale() {
        guard fractionalScale == nil else { return }
        let entered = enteredOutputs.map(\.scale)
        updateScale(SurfaceScale(integer: integerScale(entered: entered, allOutputs: connection.outputScales)))
    }

    func preferredScale(_ value120: UInt32) {
        let (usable, clamped) = SurfaceScale.fractionalValue120(value120)
        if clamped {
            connection.warn("wp_fractional_scale_v1: preferred scale \(value120)/120 is outside the scales drawn at "
                + "(\(SurfaceScale(fractional: SurfaceScale.minimumValue120)) to \(SurfaceScale.maximumFactor)); "
                + "drawing at \(SurfaceScale(fractional: usable))", once: .fractionalScale)
        }
        updateScale(SurfaceScale(fractional: usable))
    }

    func outputEntered(_ proxy: OpaquePointer?) {
        guard let output = connection.output(for: proxy), !enteredOutputs.contains(where: { $0 === output }) else { return }
        enteredOutputs.append(output)
        updateIntegerScale()
    }

    func outputLeft(_ proxy: OpaquePointer?) {
        enteredOutputs.removeAll { $0.proxy == proxy }
        updateIntegerScale()
    }

    func outputRemoved(_ output: Output) {
        enteredOutputs.removeAll { $0 === output }
        updateIntegerScale()
    }

    func outputsChanged() {
        updateIntegerScale()
    }
}
