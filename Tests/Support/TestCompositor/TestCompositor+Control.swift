// What a test can make the compositor do besides input: configure and close windows, run the
// clock and frame callbacks, hold and release buffers, change the seat, the output and the
// globals, disconnect clients, and start client processes.
internal import CWaylandServerProtocols
import Glibc

extension TestCompositor {
    // MARK: windows

    /// Sends a configure to a toplevel (`xdg_toplevel.configure` with `states`, after
    /// `configure_bounds` when `bounds` is given, then `xdg_surface.configure`) or to a layer
    /// surface (`zwlr_layer_surface_v1.configure`; `states` and `bounds` unused). Any size goes,
    /// including 0×0. Returns the serial the client must acknowledge.
    @discardableResult
    public func configure(_ surface: SurfaceID, size: Size, states: [ToplevelStateFlag] = [.activated], bounds: Size? = nil) throws -> UInt32 {
        try thread.perform { server in
            let object = try server.surface(surface)
            if let xdg = object.role as? XdgSurfaceObject, xdg.toplevel != nil {
                return server.sendToplevelConfigure(xdg, size: size, states: states, bounds: bounds)
            }
            if let layer = object.role as? LayerSurfaceObject { return server.sendLayerConfigure(layer, size: size) }
            throw TestCompositorError("test compositor: configure: \(surface) is neither a toplevel nor a layer surface (role \(object.record.role))")
        }
    }

    /// Sends a layer surface a configure with any uint32 size (`zwlr_layer_surface_v1.configure`
    /// takes unsigned sides, up to 4294967295). Returns the serial.
    @discardableResult
    public func configureLayer(_ surface: SurfaceID, width: UInt32, height: UInt32) throws -> UInt32 {
        try configure(surface, size: Size(width: Int32(bitPattern: width), height: Int32(bitPattern: height)))
    }

    /// Asks the surface to close: `xdg_toplevel.close`, or `zwlr_layer_surface_v1.closed`.
    public func close(_ surface: SurfaceID) throws {
        try thread.perform { server in try server.close(surface) }
    }

    /// Sends `xdg_wm_base.ping`; the pong shows up in ``ClientState/pongs``.
    @discardableResult
    public func ping(_ client: ClientID) throws -> UInt32 {
        try thread.perform { try $0.ping(client) }
    }

    // MARK: clock, frame callbacks, buffers

    /// Advances the virtual clock (the `time` of frame callbacks and input events). In
    /// ``FrameCallbackMode/virtualClock`` mode, also answers every waiting frame callback with
    /// `done(time)`, unless `answeringFrameCallbacks` is false (time passing between frames, as
    /// it does before an input event). Returns how many callbacks were answered.
    @discardableResult
    public func advanceClock(by milliseconds: UInt32, answeringFrameCallbacks: Bool = true) throws -> Int {
        try thread.perform { $0.advanceClock(by: milliseconds, answeringFrameCallbacks: answeringFrameCallbacks) }
    }

    /// Answers every waiting frame callback now, whatever the mode; `times` above 1 sends `done`
    /// that often on each callback before destroying it, as a broken compositor might. Returns how
    /// many callbacks were answered.
    @discardableResult
    public func sendFrameCallbacks(times: Int = 1) throws -> Int {
        try thread.perform { $0.sendFrameCallbacks(times: times) }
    }

    /// Changes when frame callbacks are answered from now on.
    public func setFrameCallbackMode(_ mode: FrameCallbackMode) throws {
        try thread.perform { server in
            server.configuration.frameCallbacks = mode
            server.applyFrameCallbackMode()
        }
    }

    /// Changes when committed buffers are released from now on (buffers already held stay held).
    public func setBufferReleaseMode(_ mode: BufferReleaseMode) throws {
        try thread.perform { $0.configuration.bufferRelease = mode }
    }

    /// Changes whether pointer and touch events get automatic `frame` events.
    public func setInputFraming(_ framing: InputFraming) throws {
        try thread.perform { $0.configuration.inputFraming = framing }
    }

    /// Releases one held buffer (checking first that the client did not write into it).
    public func releaseBuffer(_ buffer: BufferID) throws {
        try thread.perform { server in
            guard let object = server.buffers.values.first(where: { $0.id == buffer }), object.isHeld else {
                throw TestCompositorError("test compositor: \(buffer) is not held (destroyed, released, or never committed)")
            }
            server.release(object, noticed: "when the test released it")
        }
    }

    /// Sends `wl_buffer.release` for a live buffer whether or not the compositor holds it (a
    /// release for a buffer already released, as a broken compositor might send), `times` times.
    public func sendRelease(_ buffer: BufferID, times: Int = 1) throws {
        try thread.perform { server in
            guard let object = server.buffers.values.first(where: { $0.id == buffer }), !object.isDestroyed else {
                throw TestCompositorError("test compositor: \(buffer) does not exist any more")
            }
            for _ in 0..<times { server.sendRelease(object) }
        }
    }

    /// Releases every held buffer. Returns how many.
    @discardableResult
    public func releaseHeldBuffers() throws -> Int {
        try thread.perform { server in
            let held = server.buffers.values.filter(\.isHeld).sorted { $0.id < $1.id }
            for buffer in held { server.release(buffer, noticed: "when the test released it") }
            return held.count
        }
    }

    /// The checksum of a live buffer's bytes now (compare with ``BufferSnapshot/checksum``).
    public func checksum(of buffer: BufferID) throws -> UInt64 {
        try thread.perform { server in
            guard let object = server.buffers.values.first(where: { $0.id == buffer }) else {
                throw TestCompositorError("test compositor: \(buffer) does not exist any more")
            }
            return object.checksum
        }
    }

    /// Checks every held buffer for writes now (it also happens at each commit and release);
    /// returns all writes found so far.
    public func checkHeldBuffers() throws -> [HeldBufferWrite] {
        try thread.perform { server in
            server.checkHeldBuffers(of: nil, noticed: "when the test checked")
            return server.state.heldBufferWrites
        }
    }

    // MARK: seat, output, scale

    /// Gives the seat these devices and sends `wl_seat.capabilities` to every client.
    public func setSeatCapabilities(_ capabilities: SeatCapabilities) throws {
        try thread.perform { $0.setCapabilities(capabilities) }
    }

    /// Sends `wl_output.scale` (and `done`) to every client: any int32, 0 and negative included.
    public func setOutputScale(_ scale: Int32) throws {
        try thread.perform { $0.setOutputScale(scale) }
    }

    /// Sends a new current mode (and `done`) to every client; `refresh` in mHz, any int32.
    public func setOutputMode(width: Int32, height: Int32, refresh: Int32 = 60000) throws {
        try thread.perform { $0.setOutputMode(width: width, height: height, refresh: refresh) }
    }

    /// Sends one extra `mode` event (and `done`) to every client without changing the current
    /// mode's record: `current` false announces a mode the output could switch to (which must not
    /// change the client's idea of the refresh rate).
    public func sendOutputMode(width: Int32, height: Int32, refresh: Int32, current: Bool) throws {
        try thread.perform { $0.sendOutputMode(width: width, height: height, refresh: refresh, current: current) }
    }

    /// Sends `wl_surface.enter` for the output.
    public func enterOutput(_ surface: SurfaceID) throws {
        try thread.perform { try $0.enterOutput(surface) }
    }

    /// Sends `wl_surface.leave` for the output.
    public func leaveOutput(_ surface: SurfaceID) throws {
        try thread.perform { try $0.leaveOutput(surface) }
    }

    /// Sends `wp_fractional_scale_v1.preferred_scale` (120ths: 180 = 1.5).
    public func sendPreferredScale(_ surface: SurfaceID, scale120: UInt32) throws {
        try thread.perform { try $0.sendPreferredScale(surface, scale120: scale120) }
    }

    // MARK: globals, clients, processes

    /// Withdraws a global (`wl_registry.global_remove`); it is destroyed at shutdown.
    public func removeGlobal(_ global: Global) throws {
        try thread.perform { try $0.removeGlobal(global) }
    }

    /// Advertises a global (again), at `version` (default: the highest implemented).
    public func addGlobal(_ global: Global, version: UInt32? = nil) throws {
        try thread.perform { try $0.addGlobal(global, version: version ?? global.maximumVersion) }
    }

    /// Announces a global again under the name it already has (`wl_registry.global` without a
    /// `global_remove` first, which the protocol does not allow) to every client that bound it.
    public func announceGlobalAgain(_ global: Global) throws {
        try thread.perform { try $0.announceAgain(global) }
    }

    /// Closes a client's connection from the compositor's side.
    public func disconnect(_ client: ClientID) throws {
        try thread.perform { try $0.disconnect(client) }
    }

    /// Starts `executable` (searched in PATH) as a client of this compositor: its environment
    /// is the test's, plus ``environment``, plus `environment` given here. Standard output and
    /// error are captured in ``ProcessState``; it is stopped by ``stop()`` if still running.
    /// Its standard input is /dev/null, or with `standardInput` a pipe that
    /// ``writeStandardInput(_:_:)`` writes into and ``closeStandardInput(_:)`` closes.
    public func launch(_ executable: String, arguments: [String] = [], environment: [String: String] = [:],
                       standardInput: Bool = false) throws -> ProcessID {
        try thread.perform { try $0.launch(executable, arguments: arguments, environment: environment, standardInput: standardInput) }
    }

    /// Writes `text` to the standard input of a process launched with `standardInput: true`.
    public func writeStandardInput(_ process: ProcessID, _ text: String) throws {
        try thread.perform { try $0.writeStandardInput(process, text) }
    }

    /// Closes the standard input of a process launched with `standardInput: true` (it reads end of file).
    public func closeStandardInput(_ process: ProcessID) throws {
        try thread.perform { try $0.closeStandardInput(process) }
    }

    /// Sends a signal (e.g. `SIGTERM`) to a launched process.
    public func signal(_ process: ProcessID, _ signal: Int32 = SIGTERM) throws {
        try thread.perform { try $0.signal(process, signal) }
    }
}

extension Server {
    func close(_ id: SurfaceID) throws {
        let surface = try self.surface(id)
        if let xdg = surface.role as? XdgSurfaceObject, let toplevel = xdg.toplevel {
            xdg_toplevel_send_close(toplevel)
            surface.record.toplevel?.closesSent += 1
        } else if let layer = surface.role as? LayerSurfaceObject {
            zwlr_layer_surface_v1_send_closed(layer.resource)
            surface.record.layer?.closesSent += 1
        } else {
            throw TestCompositorError("test compositor: close: \(id) is neither a toplevel nor a layer surface")
        }
    }
}
