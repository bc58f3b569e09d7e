// Title bars and borders for the toplevel window. A compositor that offers xdg-decoration (KWin,
// sway) draws them itself when asked (Toplevel.swift). One that offers none (mutter) leaves a
// bare surface: then libdecor draws them, loaded at run time (CLibdecor) only in that case, so the
// other compositors pay nothing for it in start-up time or memory.
//
// How libdecor shares the display with our loop: libdecor (0.1 and 0.2) creates its registry, its
// globals, its xdg_surface/xdg_toplevel and its decoration subsurfaces on the display's *default*
// queue, the one WaylandConnection reads and dispatches in the EventLoop (prepare_read, poll,
// read_events, dispatch_pending). So every libdecor event is read and dispatched by our own loop,
// and libdecor's callbacks run from inside our `wl_display_dispatch_pending`. libdecor asks its
// user to poll `libdecor_get_fd` (the display's fd, for the cairo plugin) and to call
// `libdecor_dispatch` when it is readable: that is a source of its own in the EventLoop, whose
// handler calls `libdecor_dispatch(context, 0)` (never blocking). That call does its own
// prepare_read/read_events/dispatch_pending on the same queue, which would deadlock against a
// read we had prepared and not completed (libwayland's read_events waits for every prepared
// reader); the EventLoop runs the display's handler (which completes or cancels our read) before
// any other handler, so ours is always finished when libdecor reads. This is also what SDL does:
// `libdecor_dispatch(ctx, 0)` before its own `wl_display_prepare_read`.
import Posix
internal import CLibdecor
internal import CWaylandClient

/// How the toplevel window gets its title bar and borders.
enum DecorationRoute: Equatable, Sendable {
    /// The compositor draws them: `zxdg_toplevel_decoration_v1.set_mode(server_side)`.
    case serverSide
    /// libdecor draws them; it owns the xdg_surface and xdg_toplevel.
    case libdecor
    /// None: the window is a bare surface. `notice` is the one line that says why (nil when the
    /// user asked for no decorations).
    case undecorated(notice: String?)

    /// The library loaded for client-side decorations: libdecor's soname, or `WLSLIDER_LIBDECOR`
    /// (a soname or path; tests name one that does not exist to play a system without libdecor).
    /// `WLSLIDER_LIBDECOR=none` asks for no client-side decorations at all: nothing is loaded and
    /// nothing is said (a kiosk, or a window that should cost no more than the slider itself).
    static var libdecorLibrary: String { environmentVariable("WLSLIDER_LIBDECOR") ?? "libdecor-0.so.0" }

    /// The value of `WLSLIDER_LIBDECOR` that turns client-side decorations off.
    static let disabled = "none"

    /// The fewest open descriptors (`ulimit -n`) and the least address space (`ulimit -v`, in MiB)
    /// wlslider lets libdecor work with. Its cairo plugin (with fontconfig and pango) does not
    /// survive running out of either. Under weston: with 8 descriptors it dereferenced the null
    /// buffer it could not create (SIGSEGV); with 60–76 MiB of address space fontconfig ran out
    /// of memory (SIGSEGV) or GLib could not start pango's thread (SIGTRAP); with 80 it worked.
    /// wlslider alone needs about 8 descriptors and 20 MiB; systems set neither limit this low.
    static let libdecorDescriptorMinimum = 64
    static let libdecorAddressSpaceMinimumMiB = 256

    /// Chooses the route. `loadLibdecor` is called only when needed; it returns nil when libdecor
    /// is loaded, else the reason it is not (one line, as `dlerror` gives it). With `library`
    /// `none`, the window stays bare without a word. Below the minimum descriptors or address
    /// space allowed (`descriptorLimit`, `addressSpaceLimit` in bytes; nil: unlimited), libdecor
    /// is not loaded. The limits are read only when libdecor is in question: not when the
    /// compositor draws the decorations or the user asked for none.
    static func choose(decorationManager: Bool, subcompositor: Bool, library: String = libdecorLibrary,
                       descriptorLimit: @autoclosure () -> Int? = openDescriptorLimit(),
                       addressSpaceLimit: @autoclosure () -> Int? = addressSpaceLimit(),
                       loadLibdecor: () -> String?) -> DecorationRoute {
        if decorationManager { return .serverSide }
        if library == disabled { return .undecorated(notice: nil) }
        let missing = "zxdg_decoration_manager_v1: not offered by the compositor"
        let consequence = "the window has no title bar (move it with Super+drag, close it with Alt+F4)"
        if let limit = descriptorLimit(), limit < libdecorDescriptorMinimum {
            return .undecorated(notice: "\(missing), and libdecor is not used with \(limit) open files allowed "
                + "(ulimit -n; it needs \(libdecorDescriptorMinimum)); \(consequence)")
        }
        if let limit = addressSpaceLimit(), limit < libdecorAddressSpaceMinimumMiB << 20 {
            return .undecorated(notice: "\(missing), and libdecor is not used with \(limit >> 20) MiB of address space allowed "
                + "(ulimit -v; it needs \(libdecorAddressSpaceMinimumMiB) MiB); \(consequence)")
        }
        if let reason = loadLibdecor() {
            return .undecorated(notice: "\(missing), and libdecor could not be loaded (\(reason)); \(consequence); "
                + "install libdecor-0-0 and libdecor-0-plugin-1-cairo for one")
        }
        // libdecor draws its title bar and shadow in subsurfaces (loading it alone costs little:
        // its plugins, cairo and the rest, are loaded by libdecor_new).
        guard subcompositor else {
            return .undecorated(notice: "\(missing), nor wl_subcompositor for libdecor's title bar; \(consequence)")
        }
        return .libdecor
    }

    /// Loads libdecor (`libdecorLibrary`): nil on success, else why not.
    static func loadLibdecor() -> String? {
        let library = libdecorLibrary
        return loadRuntimeLibrary { wlslider_libdecor_load(library, $0, $1) }
    }
}

/// A libdecor context on the connection's display (see the top of this file for how its events
/// are read). Each decorated toplevel holds it, so it outlives their frames; it holds the display,
/// so `libdecor_unref` runs before the display is disconnected.
final class LibdecorContext {
    /// Set once in `init` (after `self` exists: libdecor's error callback needs it).
    private(set) var pointer: OpaquePointer!
    private let display: DisplayHandle
    /// Unowned (see `SurfaceEntry`): the connection holds the context, and the toplevels that
    /// hold it too belong to surfaces, which hold the connection.
    private unowned var connection: WaylandConnection?
    private weak var loop: EventLoop?
    private var source: EventLoop.SourceToken?

    /// A context on `display`, or nil when libdecor refuses (another context lives).
    init?(display: DisplayHandle, connection: WaylandConnection) {
        self.display = display
        self.connection = connection
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = wlslider_libdecor_new(display.pointer, { data, _, message in
            let me = Unmanaged<LibdecorContext>.fromOpaque(data!).takeUnretainedValue()
            me.error(message.map { String(cString: $0) } ?? "unknown error")
        }, me) else { return nil }
        pointer = context
    }

    /// Whether libdecor's plugin has its globals. The cairo plugin binds wl_shm, wl_compositor and
    /// wl_subcompositor in the events of a registry of its own, and libdecor 0.1.1's
    /// `libdecor_unref` destroys them without looking: a context ended before those events were
    /// dispatched crashed in `wl_proxy_destroy(NULL)` (wlslider leaving before its loop ran, when
    /// the first value line met a full disk). Until they are in, the context is never ended.
    private var pluginHasGlobals = false

    /// Dispatches until the compositor has answered what libdecor and its plugin sent while the
    /// context was made (their registries' globals among it). On a failure (the connection broke,
    /// the compositor did not answer) the context is left unended, and goes with the process.
    func waitForPluginGlobals(_ wait: RoundtripWait) throws(WaylandError) {
        try wait.roundtrip(while: "waiting for libdecor's globals")
        pluginHasGlobals = true
    }

    deinit {
        if let source { loop?.removeSource(source) }
        if let pointer, pluginHasGlobals { wlslider_libdecor_unref(pointer) }
    }

    /// Lets `loop` poll libdecor's descriptor and call `libdecor_dispatch(context, 0)` when it is
    /// readable. Must come after the display's own source (the EventLoop runs the display's
    /// handler first, so our read is complete when libdecor reads).
    func attach(to loop: EventLoop) {
        guard source == nil else { return }
        self.loop = loop
        let context = pointer
        source = loop.addSource(fd: wlslider_libdecor_get_fd(context), events: .readable) { _ in
            // A failure here is the display's: the display source reports it, with its rules for a
            // compositor's last words, on its next read.
            _ = wlslider_libdecor_dispatch(context, 0)
        }
    }

    private func error(_ message: String) {
        connection?.warn("libdecor: \(message)", once: .decorations)
    }
}

/// The toplevel role of a SliderSurface when libdecor decorates it: libdecor creates and owns the
/// xdg_surface and xdg_toplevel (and the title bar's subsurfaces); this object answers its
/// configure, close and commit callbacks.
final class LibdecorToplevel {
    private unowned let surface: SliderSurface
    private let context: LibdecorContext
    /// Set once in `init` (after `self` exists: it is the frame's user data).
    private var frame: OpaquePointer!
    private let preferredSize: LogicalSize

    /// Decorates `surface`, or returns nil when libdecor refuses (a context in error).
    init?(context: LibdecorContext, surface: SliderSurface, title: String, appID: String, preferredSize: LogicalSize) {
        self.surface = surface
        self.context = context
        self.preferredSize = preferredSize
        guard let frame = wlslider_libdecor_decorate(context.pointer, surface.proxy, Listeners.libdecorFrame,
                                                     Unmanaged.passUnretained(self).toOpaque()) else { return nil }
        self.frame = frame
        wlslider_libdecor_frame_set_title(frame, Toplevel.fittingMessage(title, request: "xdg_toplevel.set_title", what: "title",
                                                                         connection: surface.connection))
        wlslider_libdecor_frame_set_app_id(frame, Toplevel.fittingMessage(appID, request: "xdg_toplevel.set_app_id",
                                                                          what: "app id", connection: surface.connection))
        // No minimum content size of our own (the slider draws at any size): the cairo plugin sets
        // one, 128×56, room for its buttons, so under mutter a 320×48 slider opens as 320×56.
        // Maps once libdecor has its globals: the initial commit that asks for the first configure.
        wlslider_libdecor_frame_map(frame)
    }

    deinit {
        guard let frame else { return }
        // Destroys the xdg_toplevel, xdg_surface and decoration subsurfaces; the wl_surface stays ours.
        wlslider_libdecor_frame_unref(frame)
    }

    func configure(_ configuration: OpaquePointer?) {
        var width: Int32 = 0, height: Int32 = 0
        if !wlslider_libdecor_configuration_get_content_size(configuration, frame, &width, &height) {
            // The compositor leaves the size to us (libdecor says so for a 0 in either axis).
            width = 0
            height = 0
        }
        let size = Toplevel.configuredSize(width: width, height: height, preferred: preferredSize)
        // Acknowledges the configure, sets the window geometry and redraws the decorations at
        // this content size; the surface's next commit (the frame drawn for it) applies it all.
        wlslider_libdecor_frame_commit_size(frame, size.width, size.height, configuration)
        surface.roleConfigured(size)
    }

    func close() {
        surface.roleClosed()
    }

    /// The decorations are synchronised subsurfaces: their new state shows with the main surface's commit.
    func commit() {
        surface.commit()
    }
}
