// The compositor core: the wl_display, its socket, its globals, the clients, and the loop that
// runs them. It lives on the server thread only (see ServerThread.swift). Each protocol's requests
// are handled in its own file under Protocols/, as extensions of Server plus one class per object.
internal import CWaylandServer
internal import CWaylandServerProtocols
import Glibc

final class Server {
    let display: OpaquePointer
    let loop: OpaquePointer
    let address: ServerAddress
    let thread: ServerThread
    /// Distinguishes compositors of one test process (in file names and logs).
    let instance: Int
    var configuration: Configuration
    var state = CompositorState()
    var ledger = DescriptorLedger()

    var clientIDs = Counter(), surfaceIDs = Counter(), bufferIDs = Counter(), processIDs = Counter(), sentKeymaps = Counter()
    var clients: [OpaquePointer: ClientObject] = [:]
    var surfaces: [SurfaceID: SurfaceObject] = [:]
    var buffers: [OpaquePointer: BufferObject] = [:]
    var globals: [Global: OpaquePointer] = [:]
    var retiredGlobals: [OpaquePointer] = []
    var shmInitialized = false
    var seat = SeatDevices()
    var outputs: [OutputObject] = []
    /// Bound xdg_wm_base objects (a ping goes to each of the client's).
    var wmBases: [WmBaseObject] = []
    var frameCallbacks = FrameCallbackQueue()
    var waiters = Waiters()
    var children: [ProcessID: ChildProcess] = [:]
    /// Every child output pipe still watched, until its end of file or shutdown: a pipe outlives
    /// its child when the child leaves a process behind that holds it (a background job, an
    /// `--exec` hook still running), and its reader must live as long as its event source.
    var pipeReaders: [ObjectIdentifier: PipeReader] = [:]
    var keymap: Keymap?
    var keymapFD: Int32?
    var frameTimer: OpaquePointer?
    private var wakeSource: OpaquePointer?
    private var logger: OpaquePointer?
    private var clientCreated: SignalListener?
    let logToStandardError: Bool

    init(_ configuration: Configuration, thread: ServerThread, instance: Int, wakeFD: Int32) throws {
        self.configuration = configuration
        self.thread = thread
        self.instance = instance
        try Self.validate(configuration)
        logToStandardError = configuration.logProtocol || getenv("TEST_COMPOSITOR_DEBUG").map { String(cString: $0) == "1" } == true
        guard let display = wl_display_create() else { throw TestCompositorError("test compositor: wl_display_create failed") }
        self.display = display
        loop = wl_display_get_event_loop(display)
        do {
            address = try openListeningSocket(display, instance: instance, ledger: &ledger)
        } catch {
            wl_display_destroy(display)
            throw error
        }
        wakeSource = wl_event_loop_add_fd(loop, wakeFD, UInt32(WL_EVENT_READABLE), { _, _, _ in 0 }, nil)
        installObservers()
        state.seatCapabilities = configuration.seatCapabilities
        state.outputScale = configuration.output.scale
        for global in Global.allCases {
            if let version = configuration.globals[global] { try addGlobal(global, version: version) }
        }
        applyFrameCallbackMode()
    }

    /// Refuses impossible versions before anything is created, so a failed start leaves nothing behind.
    private static func validate(_ configuration: Configuration) throws {
        for (global, version) in configuration.globals where !(1...global.maximumVersion).contains(version) {
            throw TestCompositorError("test compositor: \(global) version \(version) is not offered (1...\(global.maximumVersion))")
        }
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> Server {
        Unmanaged<Server>.fromOpaque(data!).takeUnretainedValue()
    }
    var opaqueSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: the loop

    /// Runs jobs and dispatches clients until the test stops the compositor.
    func run() {
        while true {
            let (jobs, stopping) = thread.takeJobs()
            for job in jobs { job(self) }
            if stopping { break }
            settleWaiters()
            flush()
            _ = wl_event_loop_dispatch(loop, waiters.millisecondsToNextDeadline())
        }
        let problems = shutDown()
        thread.finish(state: state, problems: problems)
    }

    func flush() { wl_display_flush_clients(display) }
    func nextSerial() -> UInt32 { wl_display_next_serial(display) }

    // MARK: clients

    private func installObservers() {
        clientCreated = SignalListener { [unowned self] data in
            self.clientConnected(OpaquePointer(data!))
        }
        wl_display_add_client_created_listener(display, clientCreated!.listener)
        logger = wl_display_add_protocol_logger(display, { data, direction, message in
            Server.from(data).observe(direction == WL_PROTOCOL_LOGGER_REQUEST, message!.pointee)
        }, opaqueSelf)
    }

    private func clientConnected(_ client: OpaquePointer) {
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        let id = ClientID(clientIDs.next())
        let object = ClientObject(id: id, client: client, socket: DescriptorLedger.link(of: wl_client_get_fd(client)))
        object.destroyed = SignalListener { [unowned self, unowned object] _ in
            object.destroyed?.remove()
            self.clientDisconnected(object)
        }
        wl_client_add_destroy_listener(client, object.destroyed!.listener)
        clients[client] = object
        state.clients[id] = ClientState(id: id, pid: pid)
    }

    private func clientDisconnected(_ object: ClientObject) {
        state.clients[object.id]?.isConnected = false
        clients[object.client] = nil
        ledger.expectClosed(object.socket)
    }

    /// The number the compositor gave the client that owns `resource`.
    func clientID(of resource: OpaquePointer?) -> ClientID {
        clients[wl_resource_get_client(resource)]!.id
    }
    func clientID(ofClient client: OpaquePointer?) -> ClientID { clients[client!]!.id }
    func wlClient(_ id: ClientID) -> OpaquePointer? { clients.first { $0.value.id == id }?.key }

    /// Disconnects a client, as a compositor does with one it gives up on.
    func disconnect(_ id: ClientID) throws {
        guard let client = wlClient(id) else { throw TestCompositorError.unknownClient(id) }
        wl_client_destroy(client)
    }

    // MARK: globals

    func addGlobal(_ global: Global, version: UInt32) throws {
        guard version >= 1 && version <= global.maximumVersion else {
            throw TestCompositorError("test compositor: \(global) version \(version) is not offered (1...\(global.maximumVersion))")
        }
        guard state.globals[global] == nil else { throw TestCompositorError("test compositor: \(global) is already advertised") }
        if global == .shm {
            guard !shmInitialized else { throw TestCompositorError("test compositor: wl_shm cannot be advertised again once removed") }
            wl_display_init_shm(display)  // libwayland's own wl_shm: ARGB8888 and XRGB8888, version 1
            shmInitialized = true
        } else {
            let (interface, bind) = globalBinding(global)
            globals[global] = wl_global_create(display, interface, Int32(version), opaqueSelf, bind)
        }
        state.globals[global] = version
    }

    /// Sends `wl_registry.global` once more, with the name it already has, to each client that bound
    /// `global`, without a `global_remove` before: a protocol violation some test wants to survive.
    func announceAgain(_ global: Global) throws {
        var sent = 0
        for client in clients.values {
            guard let (registryID, name, version) = client.bindings[global.interfaceName],
                  let registry = wl_client_get_object(client.client, registryID),
                  String(cString: wl_resource_get_class(registry)) == "wl_registry" else { continue }
            global.interfaceName.withCString { interface in
                var args = [wl_argument(u: name), wl_argument(s: interface), wl_argument(u: version)]
                wl_resource_post_event_array(registry, UInt32(WL_REGISTRY_GLOBAL), &args)
            }
            sent += 1
        }
        guard sent > 0 else { throw TestCompositorError("test compositor: no client bound \(global)") }
    }

    /// Withdraws a global (`wl_registry.global_remove`); it is destroyed at shutdown, so a client
    /// that binds it in the meantime still gets an object, as the protocol requires.
    func removeGlobal(_ global: Global) throws {
        guard global != .shm else { throw TestCompositorError("test compositor: libwayland's wl_shm cannot be removed") }
        guard let object = globals.removeValue(forKey: global) else {
            throw TestCompositorError("test compositor: \(global) is not advertised")
        }
        wl_global_remove(object)
        retiredGlobals.append(object)
        state.globals[global] = nil
    }

    private func globalBinding(_ global: Global) -> (UnsafePointer<wl_interface>?, wl_global_bind_func_t) {
        switch global {
        case .compositor: (wlslider_server_wl_compositor_interface(), { c, d, v, id in Server.from(d).bindCompositor(c, v, id) })
        case .xdgWmBase: (wlslider_server_xdg_wm_base_interface(), { c, d, v, id in Server.from(d).bindWmBase(c, v, id) })
        case .layerShell: (wlslider_server_zwlr_layer_shell_v1_interface(), { c, d, v, id in Server.from(d).bindLayerShell(c, v, id) })
        case .seat: (wlslider_server_wl_seat_interface(), { c, d, v, id in Server.from(d).bindSeat(c, v, id) })
        case .output: (wlslider_server_wl_output_interface(), { c, d, v, id in Server.from(d).bindOutput(c, v, id) })
        case .viewporter: (wlslider_server_wp_viewporter_interface(), { c, d, v, id in Server.from(d).bindViewporter(c, v, id) })
        case .fractionalScale:
            (wlslider_server_wp_fractional_scale_manager_v1_interface(), { c, d, v, id in Server.from(d).bindFractionalScale(c, v, id) })
        case .cursorShape:
            (wlslider_server_wp_cursor_shape_manager_v1_interface(), { c, d, v, id in Server.from(d).bindCursorShape(c, v, id) })
        case .decorationManager:
            (wlslider_server_zxdg_decoration_manager_v1_interface(), { c, d, v, id in Server.from(d).bindDecorationManager(c, v, id) })
        case .shm: fatalError("wl_shm is libwayland's own global")
        }
    }

    // MARK: shutdown

    /// Ends children, clients and the display; returns what was left behind.
    private func shutDown() -> [String] {
        waiters.failAll(TestCompositorError.stopped)
        stopChildren()
        // Pipes a reaped child's leftover processes still hold: nothing more is read from them.
        for reader in Array(pipeReaders.values) { reader.close() }
        wl_display_destroy_clients(display)
        surfaces.removeAll()
        if let frameTimer { wl_event_source_remove(frameTimer) }
        if let wakeSource { wl_event_source_remove(wakeSource) }
        if let logger { wl_protocol_logger_destroy(logger) }
        clientCreated?.remove()
        for global in globals.values { wl_global_destroy(global) }
        for global in retiredGlobals { wl_global_destroy(global) }
        keymap = nil
        if let keymapFD { ledger.close(keymapFD) }
        wl_display_destroy(display)  // closes the listening socket
        ledger.expectClosed(ledger.listeningSocket)
        var problems = ledger.leftOpen()
        problems += removeRuntimeDirectory(address)
        return problems
    }
}

/// One connected client.
final class ClientObject {
    let id: ClientID
    let client: OpaquePointer
    /// The `/proc/self/fd` link of the server's end of its socket, to prove it was closed.
    let socket: DescriptorLedger.Link?
    var destroyed: SignalListener?
    /// What it bound through which registry: interface → (registry object id, global name, version).
    var bindings: [String: (registry: UInt32, name: UInt32, version: UInt32)] = [:]
    init(id: ClientID, client: OpaquePointer, socket: DescriptorLedger.Link?) {
        self.id = id
        self.client = client
        self.socket = socket
    }
}
