// The test compositor: a headless Wayland compositor on libwayland-server, made for client tests
// in the manner of qtwayland's mock compositor. A test starts one, points a client at its socket
// (in process, or a real executable it launches), drives input, configures, frame callbacks and
// buffer releases, and reads back every commit with the pixels the client drew.
import Synchronization

/// A headless Wayland compositor running on its own thread, controlled by the test.
///
/// Every method may be called from any task or thread. Control methods run on the compositor's
/// thread between two dispatches and return when done, so events they send reach the client in
/// the order the test sent them. Queries return value copies (``CompositorState``). Waits are
/// `async`, end as soon as their condition holds, and fail after their timeout with a summary.
///
/// A typical test, against a real client executable:
/// ```swift
/// try await withTestCompositor { compositor in          // checks "left clean" at the end
///     let app = try compositor.launch(wlsliderPath, arguments: ["--width", "400"])
///     let surface = try await compositor.waitForSurface(role: .toplevel)
///     let first = try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }
///     try compositor.touch.down(on: surface, x: 120.5, y: 30)   // one event, nothing added
///     try compositor.touch.frame()
///     try compositor.advanceClock(by: 16)                  // frame callbacks get done(1016)
///     let next = try await compositor.waitForCommit(on: surface, after: first.sequence)
///     let lines = try await compositor.waitForOutputLines(of: app, count: 2)
/// }
/// ```
///
/// Switches: ``Configuration`` chooses globals and versions, output, seat devices, buffer release
/// (``BufferReleaseMode``), frame callbacks (``FrameCallbackMode``), input framing and more; most
/// can be changed while running (`set…` methods). The compositor records everything in
/// ``CompositorState``: clients (requests counted by name), surfaces (role, configures, acks and
/// every commit with a copy of its pixels), buffers (held or released, checksums), protocol
/// errors, writes into held buffers, cursor requests and launched processes (output, exit).
///
/// Clients connect through ``socketPath`` (in process: `wl_display_connect(socketPath)`) or, when
/// launched with ``launch(_:arguments:environment:)``, through `WAYLAND_DISPLAY` and
/// `XDG_RUNTIME_DIR` set to this compositor's private directory.
public final class TestCompositor: Sendable {
    let thread: ServerThread
    private let address: ServerAddress

    /// Sends `wl_pointer` events.
    public let pointer: PointerControl
    /// Sends `wl_touch` events.
    public let touch: TouchControl
    /// Sends `wl_keyboard` events.
    public let keyboard: KeyboardControl

    /// Starts a compositor listening on a new socket in a new private runtime directory.
    public init(_ configuration: Configuration = Configuration()) throws {
        quietServerLog
        (thread, address) = try ServerThread.start(configuration, instance: nextInstance())
        pointer = PointerControl(thread: thread)
        touch = TouchControl(thread: thread)
        keyboard = KeyboardControl(thread: thread)
    }

    deinit { stop() }

    /// The private `XDG_RUNTIME_DIR` (mode 0700), removed by ``stop()``.
    public var runtimeDirectory: String { address.runtimeDirectory }
    /// The socket's name inside ``runtimeDirectory`` (the `WAYLAND_DISPLAY` value).
    public var socketName: String { address.socketName }
    /// The socket's absolute path (`wl_display_connect` accepts it directly).
    public var socketPath: String { address.socketPath }
    /// `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR` for a client of this compositor.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtimeDirectory]
    }

    /// Stops the compositor: children get SIGTERM (SIGKILL after 1 s), clients are disconnected,
    /// the thread is joined and the runtime directory removed. Returns what the shutdown found
    /// left behind (open descriptors, a live thread, a directory it could not remove): empty when
    /// clean. Idempotent; also called by `deinit`.
    @discardableResult
    public func stop() -> [String] {
        thread.stop()
    }

    /// A copy of everything observed so far (after ``stop()``, the final state).
    public var state: CompositorState {
        (try? thread.perform { $0.state }) ?? thread.stateAfterStop ?? CompositorState()
    }

    /// The recorded state of one surface.
    public func surface(_ id: SurfaceID) throws -> SurfaceState {
        guard let surface = state.surfaces[id] else { throw TestCompositorError.unknownSurface(id) }
        return surface
    }

    /// The last commit of a surface that attached a buffer, or nil.
    public func lastBufferCommit(_ id: SurfaceID) throws -> Commit? {
        try surface(id).lastBufferCommit
    }

    /// Problems a test normally fails on: every protocol error, and every write into a held buffer.
    public func problems() -> [String] {
        let s = state
        return s.protocolErrors.map { "protocol error: \($0)" } + s.heldBufferWrites.map { "\($0)" }
    }
}

private let instances = Atomic<Int>(0)
private func nextInstance() -> Int { instances.add(1, ordering: .relaxed).newValue }
