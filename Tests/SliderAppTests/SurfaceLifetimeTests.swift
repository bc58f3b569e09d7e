import Posix
import TestCompositor
import Testing
@testable import WaylandClient

/// The connection finds a surface for its input events in a table the surface leaves in its
/// deinit, and a touch point remembers the surface it went down on: a surface that goes while a
/// finger is down must take the finger's point with it, so the events that follow (its frame, a
/// cancel) reach no one, and a new surface's fingers still reach it.
@Suite struct SurfaceLifetimeTests {
    /// Records the touch batches a surface delivers.
    private final class Recorder: SliderSurfaceDelegate {
        var configured = false
        var touches: [[WaylandClient.TouchEvent]] = []
        func surface(_ surface: SliderSurface, configured logicalSize: LogicalSize) { configured = true }
        func surfaceClosed(_ surface: SliderSurface) {}
        func surface(_ surface: SliderSurface, scaleChanged scale: SurfaceScale) {}
        func surface(_ surface: SliderSurface, frameDone timeMs: UInt32) {}
        func surface(_ surface: SliderSurface, touch batch: [WaylandClient.TouchEvent]) { touches.append(batch) }
    }

    /// Runs `loop` until `done` holds (at most 5 s).
    private func pump(_ loop: EventLoop, until done: () -> Bool) throws {
        let deadline = loop.now().advanced(byMilliseconds: 5000)
        while !done() && loop.now() < deadline { try loop.runOnce(maximumWaitMilliseconds: 10) }
    }

    /// Runs `loop` for `milliseconds`, dispatching what arrives.
    private func pump(_ loop: EventLoop, forMilliseconds milliseconds: Double) throws {
        let deadline = loop.now().advanced(byMilliseconds: milliseconds)
        while loop.now() < deadline { try loop.runOnce(maximumWaitMilliseconds: 10) }
    }

    /// How many touch points the connection's seats remember.
    private func touchPoints(_ connection: WaylandConnection) -> Int {
        connection.seats.values.reduce(0) { $0 + ($1.touch?.pointSurfaces.count ?? 0) }
    }

    private func makeSurface(_ connection: WaylandConnection, _ delegate: Recorder, _ compositor: TestCompositor,
                             _ loop: EventLoop, known: Set<Int> = []) async throws -> (SliderSurface, SurfaceID) {
        let surface = try connection.makeSurface(
            role: WaylandClient.SurfaceRole.toplevel(title: "t", appID: "t", preferredSize: LogicalSize(width: 320, height: 48)),
            delegate: delegate)
        try pump(loop, forMilliseconds: 50)
        let id = try await compositor.waitFor("a new toplevel") { state in
            state.surfaces(withRole: .toplevel).map(\.id).first { !known.contains($0.rawValue) }
        }
        try compositor.configure(id, size: Size(width: 320, height: 48))
        try pump(loop) { delegate.configured }
        #expect(delegate.configured)
        return (surface, id)
    }

    @Test("a surface gone while a finger is down: its point goes with it, and a new surface's finger still arrives")
    func surfaceGoneWithFingerDown() async throws {
        let compositor = try TestCompositor()
        defer { _ = compositor.stop() }
        let connection = try WaylandConnection(displayName: compositor.socketPath)
        let loop = EventLoop()
        connection.attach(to: loop)

        // The seat's touch device exists once the client asked for it (a slow machine, under
        // AddressSanitizer, may still be on its way there after the first configure).
        try pump(loop) { compositor.state.clients.values.contains { $0.requests("wl_seat.get_touch") > 0 } }
        let first = Recorder()
        var (surface, id): (SliderSurface?, SurfaceID) = try await makeSurface(connection, first, compositor, loop)
        try compositor.touch.down(on: id, x: 10, y: 10)
        // The down is read (and held for its frame), then the surface goes.
        try pump(loop, forMilliseconds: 50)
        #expect(first.touches.isEmpty)
        #expect(touchPoints(connection) == 1)
        surface = nil
        #expect(surface == nil)
        // Its wl_surface may be reused for the next surface: no point may still name it.
        #expect(touchPoints(connection) == 0)
        // A new surface (libwayland may well give it the gone one's address) before the frame
        // that completes the gone surface's batch, and a cancel.
        let second = Recorder()
        let (kept, secondID) = try await makeSurface(connection, second, compositor, loop, known: [id.rawValue])
        try compositor.touch.frame()
        try compositor.touch.cancel()
        try pump(loop, forMilliseconds: 100)
        #expect(first.touches.isEmpty, "delivered after the surface went: \(first.touches)")
        #expect(second.touches.isEmpty, "the gone surface's finger reached the new one: \(second.touches)")

        try compositor.touch.down(on: secondID, x: 20, y: 10)
        try compositor.touch.frame()
        try pump(loop) { !second.touches.isEmpty }
        #expect(second.touches.count == 1)
        if case .down(0, _, _, _)? = second.touches.first?.first {} else {
            Issue.record("expected the second surface's down, got \(second.touches)")
        }
        #expect(first.touches.isEmpty)
        withExtendedLifetime(kept) {}
    }
}
