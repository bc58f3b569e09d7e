// End-to-end frame pacing and buffer scenarios: wlslider never writes into a buffer the
// compositor holds (it allocates another instead of waiting), does not spin when frame callbacks
// stop coming, and sends nothing at all while idle.
import Testing
import TestCompositor

@Suite("wlslider scenarios: buffers and frame pacing")
struct WlsliderFramePacingTests {
    @Test("while the compositor holds every buffer, each frame is drawn into a newly allocated one; held buffers are never written")
    func heldBuffersAreNeverWritten() async throws {
        var configuration = Configuration()
        configuration.bufferRelease = .hold
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            var frames = 2  // the first frame, and the one drawn at once for the tap
            // Until its limit of 8 buffers, every frame goes out at once, each in a buffer of its own.
            while compositor.state.buffers.count < 8 && frames < 20 {
                try await slider.advance(by: 16)
                frames += 1
            }
            var state = compositor.state
            let commits = try compositor.surface(slider.surface).commits.compactMap(\.buffer)
            #expect(state.buffers.count == 8 && frames == 8, "\(state.buffers.count) buffers after \(frames) frames")
            #expect(commits.count == frames && Set(commits.map(\.buffer)).count == frames, "one new buffer per frame: \(commits.map(\.buffer))")
            #expect(state.buffers.values.allSatisfy { $0.isHeld && $0.releaseCount == 0 && $0.commitCount == 1 })
            #expect(try compositor.checkHeldBuffers().isEmpty)
            for snapshot in commits {
                #expect(try compositor.checksum(of: snapshot.buffer) == snapshot.checksum, "\(snapshot.buffer) unchanged since its commit")
            }

            // With all eight held it draws nothing, and asks for no frame callback until one is
            // released (its own timer would carry the value stream meanwhile, in real time).
            let waiting = try await slider.advance(frames: 3)
            state = compositor.state
            #expect(state.buffers.count == 8, "no more buffers past the limit")
            #expect(try compositor.surface(slider.surface).commits.compactMap(\.buffer).count == frames, "no buffer committed while all are held")
            #expect(waiting.count == 1, "the frame that found every buffer held, then no more: \(waiting)")
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 0)
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(200)) == 0)
            #expect(try compositor.checkHeldBuffers().isEmpty)

            // Released, they are reused, and the glide ends exactly on its target.
            try compositor.setBufferReleaseMode(.immediate)
            try compositor.releaseHeldBuffers()
            try await slider.settle()
            #expect(try slider.lastValue() == 50)
            #expect(compositor.state.buffers.count == 8, "reused, not reallocated")
            #expect(abs(try slider.thumb().centerX - 160) <= 0.5)
            try await slider.terminate()
        }
    }

    @Test("a scale change while the compositor holds the old buffers draws into a new one of the new size at once; the old ones are destroyed when released")
    func scaleChangeWithHeldBuffers() async throws {
        var configuration = Configuration()
        configuration.bufferRelease = .hold
        configuration.globals[.fractionalScale] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            let old = try #require(slider.firstCommit.buffer)
            try compositor.setOutputScale(2)
            try await slider.sync()
            let commit = try #require(compositor.surface(slider.surface).lastBufferCommit?.buffer)
            #expect(commit.buffer != old.buffer && commit.width == 640 && commit.height == 96)
            #expect(try compositor.checkHeldBuffers().isEmpty)

            try compositor.releaseHeldBuffers()
            let stale = old.buffer
            try await compositor.waitUntil("the 320×48 buffer to be destroyed") { $0.buffers[stale]?.isDestroyed == true }
            #expect(compositor.state.buffers[commit.buffer]?.isDestroyed == false, "the current size is kept for reuse")
            try await slider.terminate()
        }
    }

    @Test("when the compositor keeps the shown buffer until the next commit, frames alternate between two buffers, never drawing into the shown one")
    func shownBufferIsNeverWritten() async throws {
        var configuration = Configuration()
        configuration.bufferRelease = .whenReplaced
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 50)
            let buffers = try compositor.surface(slider.surface).commits.compactMap(\.buffer?.buffer)
            #expect(buffers.count >= 17, "\(buffers.count) frames")
            #expect(zip(buffers, buffers.dropFirst()).allSatisfy { $0 != $1 }, "never the buffer on screen: \(buffers)")
            #expect(Set(buffers).count == 2, "two suffice: \(buffers)")
            #expect(try compositor.checkHeldBuffers().isEmpty)
            try await slider.terminate()
        }
    }

    @Test("with frame callbacks withheld an animating slider draws once and then waits: no busy loop")
    func withheldFrameCallbacks() async throws {
        var configuration = Configuration()
        configuration.frameCallbacks = .withheld
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            let commits = try compositor.surface(slider.surface).commitCount
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 1, "it asked for the next frame")
            let rate = try await compositor.requestRate(of: slider.client, over: .milliseconds(500))
            #expect(rate <= 4, "\(rate) requests per second while waiting for a frame callback")
            #expect(try compositor.surface(slider.surface).commitCount == commits, "no frames without callbacks")

            // A callback at last, 16 ms on: one frame, and it asks for the next.
            #expect(try compositor.advanceClock(by: 16) == 0, "withheld: the clock alone answers nothing")
            #expect(try compositor.sendFrameCallbacks() == 1)
            try await slider.sync()
            #expect(try compositor.surface(slider.surface).commitCount == commits + 1)
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 1)
            try compositor.setFrameCallbackMode(.virtualClock)
            try await slider.settle()
            #expect(try slider.lastValue() == 50)
            try await slider.terminate()
        }
    }

    @Test("idle means idle: after its first frame, and after a glide has ended, wlslider sends no requests at all")
    func idleSendsNothing() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor)
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(500)) == 0, "after the first frame")
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 0)

            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(500)) == 0, "after a glide")
            #expect(compositor.state.protocolErrors.isEmpty)
            try await slider.terminate()
        }
    }
}
