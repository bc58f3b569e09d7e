// The test compositor proven with real clients from Debian's weston package: if weston's own
// reference clients draw, pace and take touch input here, the compositor speaks the protocol as
// real compositors do.
import Glibc
import Testing
import TestCompositor

@Suite("Test compositor with weston's reference clients")
struct TestCompositorWestonTests {
    @Test("weston-simple-shm commits frames whose pixels are read back, paced by the virtual clock")
    func simpleShmDrawsPacedFrames() async throws {
        try await withTestCompositor { compositor in
            let process = try compositor.launch("weston-simple-shm")
            let surface = try await compositor.waitForSurface(role: .toplevel)
            let first = try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }
            let image = try #require(first.buffer?.image)
            #expect(first.buffer?.format == .xrgb8888)
            #expect(image.width == 250 && image.height == 250)
            #expect(image.distinctColorCount > 100, "simple-shm paints a pattern, not a flat fill")
            #expect(first.frameCallbacks == 1)

            // No new frame until the clock runs: the client waits for its frame callback.
            let state = compositor.state
            #expect(state.surfaces[surface]?.frameCallbacksPending == 1)
            #expect(try compositor.advanceClock(by: 16) == 1)
            let second = try await compositor.waitForCommit(on: surface, after: first.sequence) { $0.buffer != nil }
            #expect(second.buffer?.image != image, "the pattern moves with the callback time")
            #expect(compositor.state.clients.values.first?.boundVersion(.shm) == 1)

            // simple-shm notices SIGINT when its event loop next wakes: the next frame callback.
            try compositor.signal(process, SIGINT)
            try compositor.advanceClock(by: 16)
            #expect(try await compositor.waitForExit(process) == .exited(0))
        }
    }

    @Test("weston-simple-shm alternates two buffers when the compositor keeps the shown one, never writing into it")
    func simpleShmRespectsHeldBuffer() async throws {
        var configuration = Configuration()
        configuration.bufferRelease = .whenReplaced
        try await withTestCompositor(configuration) { compositor in
            let process = try compositor.launch("weston-simple-shm")
            let surface = try await compositor.waitForSurface(role: .toplevel)
            var commits: [Commit] = [try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }]
            for _ in 0..<4 {
                try compositor.advanceClock(by: 16)
                commits.append(try await compositor.waitForCommit(on: surface, after: commits.last!.sequence) { $0.buffer != nil })
            }
            let ids = commits.compactMap { $0.buffer?.buffer }
            #expect(Set(ids).count == 2 && zip(ids, ids.dropFirst()).allSatisfy { $0 != $1 }, "alternating: \(ids)")
            #expect(try compositor.checkHeldBuffers().isEmpty)
            try compositor.signal(process, SIGKILL)
            _ = try await compositor.waitForExit(process)
        }
    }

    @Test("weston-simple-touch paints a mark where each finger touches, in that finger's colour")
    func simpleTouchPaintsTouches() async throws {
        try await withTestCompositor { compositor in
            let process = try compositor.launch("weston-simple-touch")
            let surface = try await compositor.waitForSurface(role: .toplevel)
            let blank = try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }
            let background = try #require(blank.buffer?.image)
            #expect(background.width == 600 && background.height == 500 && background.distinctColorCount == 1)
            try await compositor.waitUntil("simple-touch to get its wl_touch") { $0.clients.values.first?.requests("wl_seat.get_touch") == 1 }

            try compositor.touch.down(id: 0, on: surface, x: 100.5, y: 80.25)
            let first = try await compositor.waitForCommit(on: surface, after: blank.sequence)
            let afterFirst = try #require(first.buffer?.image)
            #expect(afterFirst[100, 80] == 0xffff_0000, "finger 0 paints red")
            #expect(afterFirst.differingBounds(from: background) == Rect(x: 98, y: 78, width: 5, height: 5))
            #expect(first.surfaceDamage == [Rect(x: 98, y: 78, width: 5, height: 5)])

            try compositor.touch.send([.down(id: 1, surface: surface, x: 300, y: 200), .motion(id: 1, x: 310, y: 200.5), .frame])
            let moved = try await compositor.waitForCommit(on: surface, after: first.sequence + 1)
            let image = try #require(moved.buffer?.image)
            #expect(image[300, 200] == 0xffff_ff00 && image[310, 200] == 0xffff_ff00, "finger 1 paints yellow, down and moved")
            #expect(image[100, 80] == 0xffff_0000, "finger 0's mark stays")
            try compositor.signal(process, SIGKILL)
            _ = try await compositor.waitForExit(process)
        }
    }

    @Test("weston-simple-touch draws into its only buffer while the compositor shows it, and the checksum catches it")
    func simpleTouchWritesIntoHeldBuffer() async throws {
        var configuration = Configuration()
        configuration.bufferRelease = .whenReplaced
        try await withTestCompositor(configuration, allowHeldBufferWrites: true) { compositor in
            let process = try compositor.launch("weston-simple-touch")
            let surface = try await compositor.waitForSurface(role: .toplevel)
            let blank = try await compositor.waitForCommit(on: surface, after: 0) { $0.buffer != nil }
            try await compositor.waitUntil("simple-touch to get its wl_touch") { $0.clients.values.first?.requests("wl_seat.get_touch") == 1 }
            try compositor.touch.down(on: surface, x: 50, y: 50)
            let next = try await compositor.waitForCommit(on: surface, after: blank.sequence)
            let writes = compositor.state.heldBufferWrites
            #expect(writes.map(\.buffer) == [blank.buffer?.buffer].compactMap { $0 })
            #expect(writes.first?.noticed == "at commit \(next.sequence) of \(surface)")
            try compositor.signal(process, SIGKILL)
            _ = try await compositor.waitForExit(process)
        }
    }
}
