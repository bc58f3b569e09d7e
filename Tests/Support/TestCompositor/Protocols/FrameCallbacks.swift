// wl_surface.frame callbacks and the virtual clock that answers them. A committed callback waits
// here until the mode in Configuration.frameCallbacks says it is time (by default: when the test
// advances the clock), so a test decides exactly when a client may draw its next frame.
internal import CWaylandServer

/// One `wl_callback` from `wl_surface.frame`.
final class FrameCallbackObject: ResourceObject {
    let resource: OpaquePointer
    let surface: SurfaceID
    unowned let server: Server
    var isCommitted = false
    var isDone = false

    init(resource: OpaquePointer, surface: SurfaceID, server: Server) {
        self.resource = resource
        self.surface = surface
        self.server = server
    }

    func resourceDestroyed() {
        // Gone without `done` (the client disconnected): it no longer waits.
        if isCommitted && !isDone { server.state.surfaces[surface]?.frameCallbacksPending -= 1 }
        isDone = true
    }
}

/// Committed callbacks waiting for `done`, oldest first.
struct FrameCallbackQueue {
    private(set) var waiting: [FrameCallbackObject] = []

    mutating func committed(_ callbacks: [FrameCallbackObject], surface: SurfaceID, record: inout SurfaceState) {
        for callback in callbacks {
            callback.isCommitted = true
            waiting.append(callback)
        }
        record.frameCallbacksPending += callbacks.count
    }

    mutating func takeAll() -> [FrameCallbackObject] {
        defer { waiting.removeAll() }
        return waiting.filter { !$0.isDone }
    }
}

extension Server {
    /// Sends `done` with the virtual time to every committed callback (`times` times each: more
    /// than once only to play a broken compositor); returns how many callbacks.
    @discardableResult
    func sendFrameCallbacks(times: Int = 1) -> Int {
        let due = frameCallbacks.takeAll()
        for callback in due {
            callback.isDone = true
            state.surfaces[callback.surface]?.frameCallbacksPending -= 1
            state.surfaces[callback.surface]?.frameCallbacksDone += 1
            for _ in 0..<max(times, 1) { wl_callback_send_done(callback.resource, state.time) }
            wl_resource_destroy(callback.resource)
        }
        return due.count
    }

    /// Advances the virtual clock; in `.virtualClock` mode also answers the waiting callbacks
    /// unless told not to.
    @discardableResult
    func advanceClock(by milliseconds: UInt32, answeringFrameCallbacks: Bool = true) -> Int {
        state.time &+= milliseconds
        return answeringFrameCallbacks && configuration.frameCallbacks == .virtualClock ? sendFrameCallbacks() : 0
    }

    /// Starts or stops the real-time frame timer to match the configured mode.
    func applyFrameCallbackMode() {
        if let frameTimer {
            wl_event_source_remove(frameTimer)
            self.frameTimer = nil
        }
        guard case .realTime(let interval) = configuration.frameCallbacks else { return }
        frameTimer = wl_event_loop_add_timer(loop, { data in
            let server = Server.from(data)
            guard case .realTime(let interval) = server.configuration.frameCallbacks else { return 0 }
            server.state.time &+= interval
            server.sendFrameCallbacks()
            wl_event_source_timer_update(server.frameTimer, Int32(interval))
            return 0
        }, opaqueSelf)
        wl_event_source_timer_update(frameTimer, Int32(max(1, interval)))
    }
}
