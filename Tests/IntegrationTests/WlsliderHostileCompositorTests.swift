// End-to-end scenarios against a compositor that sends nonsense: scales in the millions, sizes of
// every sign and magnitude, broken keymaps and key codes no keyboard has, absurd refresh rates,
// releases of buffers it does not hold. Each time wlslider keeps running, says so once on stderr
// (one line per kind of problem, never a flood), still moves and draws, and exits 0 on `quit`.
import Testing
import TestCompositor

@Suite("wlslider scenarios: a hostile compositor")
struct WlsliderHostileCompositorTests {
    // MARK: scales

    @Test("wl_output.scale 40 000 000 and Int32.max are drawn at 16× (one warning), 0 and negative at 1×; the slider still glides")
    func outputScaleOverflow() async throws {
        var configuration = Configuration()
        configuration.globals[.fractionalScale] = nil
        configuration.commitHistoryLimit = 8
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            // 40 000 000 × 120 overflowed a UInt32 and trapped.
            try await slider.setOutputScale(40_000_000, expecting: (5120, 768, 16))
            try await slider.setOutputScale(.max, expecting: (5120, 768, 16))
            try await slider.setOutputScale(0, expecting: (320, 48, 1))
            try await slider.setOutputScale(2, expecting: (640, 96, 2))
            try await slider.setOutputScale(-7, expecting: (320, 48, 1))
            try await slider.setOutputScale(2, expecting: (640, 96, 2))
            try await slider.tapGlides(toValue: 75, atX: 229, scale: 2)
            try await slider.quit(expectingWarnings: ["wl_output.scale 40000000 on TEST-1 is beyond the largest scale drawn at; drawing at 16"])
        }
    }

    @Test("preferred_scale UInt32.max is drawn at 16×, 1/120 at ¼ (one warning), 0 at 1×; the slider still glides")
    func fractionalScaleExtremes() async throws {
        var configuration = Configuration()
        configuration.commitHistoryLimit = 8
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            // Drawn as sent, UInt32.max/120 made a 2147483647-pixel-wide buffer "that does not fit in a pool".
            try await slider.sendPreferredScale(.max, expecting: (5120, 768))
            try await slider.sendPreferredScale(1, expecting: (80, 12))
            try await slider.sendPreferredScale(0, expecting: (320, 48))
            try await slider.sendPreferredScale(180, expecting: (480, 72))
            let commit = try #require(try compositor.lastBufferCommit(slider.surface))
            #expect(commit.viewportDestination == Size(width: 320, height: 48) && commit.bufferScale == 1)
            try await slider.tapGlides(toValue: 75, atX: 229, scale: 1.5)
            try await slider.quit(expectingWarnings: ["wp_fractional_scale_v1: preferred scale 4294967295/120 is outside the scales drawn at (0.25 to 16); drawing at 16"])
        }
    }

    // MARK: configured sizes

    @Test("toplevel configures of 0×0, negative, 100000×48, 100000×100000, 20000² and Int32.max² each give a drawable surface; huge ones are cut to 16384 px a side and 128 MiB (one warning each kind)")
    func toplevelConfigureSizes() async throws {
        var configuration = Configuration()
        configuration.commitHistoryLimit = 4  // the largest buffers are 128 MiB
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try await slider.configure(Size(width: 400, height: 60), expecting: (400, 60))
            try await slider.configure(Size(width: 0, height: 0), expecting: (320, 48))
            try await slider.configure(Size(width: 400, height: 60), expecting: (400, 60))
            // Negative sides mean nothing: the client's choice, like 0.
            try await slider.configure(Size(width: -5, height: -7), expecting: (320, 48))
            try await slider.configure(Size(width: 100_000, height: 48), expecting: (16384, 48))
            // √(128 MiB / 4 bytes) = 5792 pixels a side. Drawn as asked, 100000² failed ("does not fit
            // in a pool") and 20000² took a 1.6 GB buffer.
            try await slider.configure(Size(width: 100_000, height: 100_000), expecting: (5792, 5792))
            try await slider.configure(Size(width: 400, height: 60), expecting: (400, 60))
            try await slider.configure(Size(width: 20_000, height: 20_000), expecting: (5792, 5792))
            try await slider.configure(Size(width: .max, height: .max), expecting: (5792, 5792))
            try await slider.configure(Size(width: 400, height: 60), expecting: (400, 60))
            try await slider.tapGlides(toValue: 25, atX: 111, y: 30)
            try await slider.quit(expectingWarnings: [
                "xdg_toplevel.configure: a negative size -5x-7 means nothing; taking it as 0 (the client's choice)",
                "the compositor asks for a 100000x48 surface, too large to draw at scale 1 (buffers are kept within 16384 pixels a side and 128 MiB); drawing 16384x48",
            ])
        }
    }

    @Test("a huge first configure (20000²) is drawn at 5792² (one warning), not a pool sized beyond Int32.max")
    func hugeFirstConfigure() async throws {
        var configuration = Configuration()
        configuration.commitHistoryLimit = 4
        configuration.initialToplevelSize = Size(width: 20_000, height: 20_000)
        try await withTestCompositor(configuration) { compositor in
            // The first pool was sized for two buffers of the first frame: 3.2 GB, which trapped.
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            #expect(slider.firstCommit.buffer?.width == 5792 && slider.firstCommit.buffer?.height == 5792)
            try await slider.configure(Size(width: 320, height: 48), expecting: (320, 48))
            try await slider.tapGlides(toValue: 75, atX: 229)
            try await slider.quit(expectingWarnings: [
                "the compositor asks for a 20000x20000 surface, too large to draw at scale 1 (buffers are kept within 16384 pixels a side and 128 MiB); drawing 5792x5792",
            ])
        }
    }

    @Test("tiny configures, 1×1 and 30×48, of a toplevel and a layer surface give a drawable surface; the slider still glides")
    func tinyConfigureSizes() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try await slider.configure(Size(width: 1, height: 1), expecting: (1, 1))
            try await slider.configure(Size(width: 30, height: 48), expecting: (30, 48))
            try await slider.configure(Size(width: 1, height: 1), expecting: (1, 1))
            try await slider.configure(Size(width: 0, height: 0), expecting: (320, 48))
            try await slider.tapGlides(toValue: 75, atX: 229)
            try await slider.quit(expectingWarnings: [])
        }
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--edge", "bottom", "--value", "50"], role: .layer, standardInput: true)
            try await slider.configure(layerWidth: 1, height: 1, expecting: (1, 1))
            try await slider.configure(layerWidth: 0, height: 0, expecting: (320, 48))
            try compositor.writeStandardInput(slider.process, "80\n")
            try await slider.settleAfterStandardInput()
            #expect(try slider.lastValue() == 80)
            try await slider.quit(expectingWarnings: [])
        }
    }

    @Test("layer-surface configures of 4294967295², 100000×48 and 0×0 give a drawable surface (one warning); the edge slider still works")
    func layerConfigureSizes() async throws {
        var configuration = Configuration()
        configuration.commitHistoryLimit = 4
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--edge", "bottom", "--value", "50"], role: .layer, standardInput: true)
            #expect(slider.firstCommit.buffer?.width == 320 && slider.firstCommit.buffer?.height == 48)
            try await slider.configure(layerWidth: .max, height: .max, expecting: (5792, 5792))
            try await slider.configure(layerWidth: 100_000, height: 48, expecting: (16384, 48))
            try await slider.configure(layerWidth: 0, height: 0, expecting: (320, 48))
            try compositor.writeStandardInput(slider.process, "80\n")
            try await slider.settleAfterStandardInput()
            #expect(try slider.lastValue() == 80)
            try await slider.quit(expectingWarnings: [
                "the compositor asks for a 2147483647x2147483647 surface, too large to draw at scale 1 (buffers are kept within 16384 pixels a side and 128 MiB); drawing 5792x5792",
            ])
        }
    }

    @Test("a scale change that makes a large configured size too large cuts it, and the size comes back with the scale")
    func largeSizeThenLargeScale() async throws {
        var configuration = Configuration()
        configuration.commitHistoryLimit = 4
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try await slider.configure(Size(width: 4000, height: 100), expecting: (4000, 100))
            // At 8× the 4000 logical pixels would need 32000 buffer pixels: 16384 / 8 = 2048 logical.
            try await slider.sendPreferredScale(960, expecting: (16384, 800))
            #expect(try compositor.lastBufferCommit(slider.surface)?.viewportDestination == Size(width: 2048, height: 100))
            try await slider.sendPreferredScale(120, expecting: (4000, 100))
            #expect(try compositor.lastBufferCommit(slider.surface)?.viewportDestination == Size(width: 4000, height: 100))
            try await slider.quit(expectingWarnings: [
                "the compositor asks for a 4000x100 surface, too large to draw at scale 8 (buffers are kept within 16384 pixels a side and 128 MiB); drawing 2048x100",
            ])
        }
    }

    // MARK: the title

    @Test("a title longer than a Wayland message is cut at a character boundary to 4083 bytes (one warning), not a lost connection")
    func longTitle() async throws {
        for (title, expected) in [(String(repeating: "x", count: 5000), String(repeating: "x", count: 4083)),
                                  ("x" + String(repeating: "€", count: 2000), "x" + String(repeating: "€", count: 1360))] {
            try await withTestCompositor { compositor in
                let slider = try await SliderRun.launch(compositor, ["--value", "50", "--title", title], standardInput: true)
                let sent = try #require(try compositor.surface(slider.surface).toplevel?.title)
                #expect(sent == expected, "\(sent.utf8.count) bytes sent")
                try await slider.tapGlides(toValue: 75, atX: 229)
                try await slider.quit(expectingWarnings: [
                    "xdg_toplevel.set_title: the title is \(title.utf8.count) bytes, more than a Wayland message holds; cut to \(expected.utf8.count) bytes",
                ])
            }
        }
    }

    // MARK: the keyboard

    @Test("a keymap shorter than announced, garbage, an empty one and 'no keymap' leave keys ignored with one warning per broken spell; key codes 0xffffffff and 0xfffffff8 are ignored; a good keymap brings the keys back")
    func brokenKeymapsAndKeyCodes() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try compositor.keyboard.enter(slider.surface)
            let good = Array(try compositor.keyboard.keymapText().utf8) + [0]

            // 100 bytes in the file, 64 KiB announced: a mapping of it would fault with SIGBUS.
            try compositor.keyboard.sendKeymap(Array(good.prefix(100)), announcedSize: 65536)
            try await slider.expectKeys(move: false)
            try await slider.tapCodes([0xffff_ffff, 0xffff_fff8])

            try compositor.keyboard.resendKeymap()
            try await slider.expectKeys(move: true)
            try await slider.tapCodes([0xffff_ffff, 0xffff_fff8])
            try await slider.expectKeys(move: true)

            // Another broken spell: garbage, then nothing at all, then "no keymap" (one warning for all).
            try compositor.keyboard.sendKeymap(Array("xkb_keymap { this is not one; ".utf8) + [0xff, 0xfe, 0])
            try await slider.expectKeys(move: false)
            try compositor.keyboard.sendKeymap([])
            try compositor.keyboard.sendKeymap(good, format: 0)
            try await slider.expectKeys(move: false)

            try compositor.keyboard.resendKeymap()
            try await slider.expectKeys(move: true)
            try await slider.quit(expectingWarnings: [
                "wl_keyboard: the compositor's keymap does not compile (its file holds 100 of the 65536 bytes announced); keys are ignored",
                "wl_keyboard: the compositor's keymap does not compile; keys are ignored",
            ])
        }
    }

    // MARK: refresh rates, releases, frame callbacks

    @Test("absurd refresh rates pace a hidden window's value stream within 1–1000 Hz; a mode that is not current changes nothing")
    func absurdRefreshRates() async throws {
        try await withTestCompositor { compositor in
            // wlslider's own rule for late frame callbacks: the refresh rate paces the stream.
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true, lateFrameMilliseconds: nil)
            try compositor.setFrameCallbackMode(.withheld)
            // Int32.max mHz would be a timer every 0.5 µs: 1000 Hz at most, 0.25 s of glide in ≤ 250 steps.
            try compositor.setOutputMode(width: 800, height: 600, refresh: .max)
            let fast = try await slider.hiddenGlide(to: 100)
            #expect(fast.count >= 2 && fast.count <= 260, "\(fast.count) lines")
            // Unknown (0, or negative) is 60 Hz, whatever modes the output could switch to.
            try compositor.setOutputMode(width: 800, height: 600, refresh: 0)
            try compositor.sendOutputMode(width: 640, height: 480, refresh: 1_000_000, current: false)
            try compositor.sendOutputMode(width: 800, height: 600, refresh: .min, current: true)
            let slow = try await slider.hiddenGlide(to: 0)
            #expect(slow.count >= 2 && slow.count <= 25, "60 Hz: \(slow.count) lines")
            try await slider.quit(expectingWarnings: [])
        }
    }

    @Test("frame callbacks all stamped with one time (a clock that stands still) still carry a glide to its end, each frame later than the one before")
    func frameTimeStandingStill() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "0"], standardInput: true)
            let stamp = compositor.state.time
            _ = try slider.takeLines()
            try compositor.writeStandardInput(slider.process, "100\n")
            let surface = slider.surface
            try await compositor.waitUntil("a frame for the stdin command") { ($0.surfaces[surface]?.frameCallbacksPending ?? 0) > 0 }
            let started = ContinuousClock.now
            var lines: [ValueLine] = []
            var callbacks = 0
            while lines.last?.value != 100, ContinuousClock.now - started < .seconds(15) {
                try await Task.sleep(for: .milliseconds(16))
                callbacks += try compositor.sendFrameCallbacks()
                try await slider.sync()
                lines += try slider.takeLines()
            }
            let elapsed = ContinuousClock.now - started
            let values = lines.map(\.value), times = lines.map(\.t)
            #expect(compositor.state.time == stamp, "every callback carried the same time")
            #expect(values.last == 100, "the 0.25 s glide ended within 15 s of callbacks: \(values)")
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "climbing, no frame without progress: \(values)")
            // How many frames it takes depends on how fast this loop runs, not on the stamps: the
            // glide ends at the first callback 0.25 s after the command. No bound on the time it
            // took, though: beside the parallel suite one turn of this loop can take seconds. The
            // old rule showed here as frames at one and the same time (3.3 s and 26 callbacks on
            // a quiet machine).
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "each frame at a later time: \(times) (\(callbacks) callbacks in \(elapsed))")
            try await slider.quit(expectingWarnings: [])
        }
    }

    @Test("releases of buffers not held, done sent fifty times on one frame callback and a storm of configures change nothing")
    func spuriousEvents() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 229, y: 24), .frame, .up(id: 0), .frame])
            var glide: [ValueLine] = []
            for _ in 0..<5 {
                for (id, buffer) in compositor.state.buffers where !buffer.isDestroyed { try compositor.sendRelease(id, times: 20) }
                try compositor.advanceClock(by: 16, answeringFrameCallbacks: false)
                try compositor.sendFrameCallbacks(times: 50)
                try await slider.sync()
                glide += try slider.takeLines()
            }
            glide += try await slider.settle()
            let values = glide.map(\.value)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 } && values.count > 10 && values.last == 75,
                    "one frame per callback, gliding on: \(values)")
            var last: UInt32 = 0
            for i in 0..<300 { last = try compositor.configure(slider.surface, size: Size(width: 300 + Int32(i % 7), height: 40 + Int32(i % 5))) }
            try await compositor.waitForAck(of: last, on: slider.surface, timeout: .seconds(20))
            // Releases come after the commits of many sizes, so it ran out of free buffers on the way
            // and waits for a frame callback to draw the last size.
            try await slider.settle()
            try await slider.configure(Size(width: 320, height: 48), expecting: (320, 48))
            #expect(compositor.state.buffers.values.filter { !$0.isDestroyed }.count <= 2, "stale buffers are destroyed")
            try await slider.tapGlides(toValue: 25, atX: 91)
            try await slider.quit(expectingWarnings: [])
        }
    }

    @Test("a compositor that holds every buffer and answers frame callbacks at once does not make wlslider poll for a release")
    func everyBufferHeldWithImmediateCallbacks() async throws {
        var configuration = Configuration()
        configuration.bufferRelease = .hold
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try compositor.setFrameCallbackMode(.immediate)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 229, y: 24), .frame, .up(id: 0), .frame])
            try await compositor.waitUntil("eight held buffers") { $0.buffers.count == 8 }
            // Each frame request was answered at once: thousands a second until a release.
            let rate = try await compositor.requestRate(of: slider.client, over: .milliseconds(300))
            #expect(rate < 20, "\(rate) requests a second while every buffer is held")
            #expect(try compositor.checkHeldBuffers().isEmpty)
            try compositor.setFrameCallbackMode(.virtualClock)
            try compositor.setBufferReleaseMode(.immediate)
            try compositor.releaseHeldBuffers()
            try await slider.catchUp()
            try await slider.settle()
            #expect(try slider.lastValue() == 75)
            #expect(abs(try slider.thumb().centerX - 229) <= 1)
            try await slider.quit(expectingWarnings: [])
        }
    }

    // MARK: globals

    @Test("a seat announced again under its name (no global_remove) ends the gesture its old touch held, and the new seat works")
    func seatAnnouncedAgain() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])
            try compositor.announceGlobalAgain(.seat)
            let client = slider.client
            try await compositor.waitUntil("a second wl_seat") { $0.clients[client]?.boundGlobals["wl_seat"]?.count == 2 }
            try await slider.sync()
            try await slider.catchUp()  // the lost touch carries no timestamp
            try await slider.settle()
            // The old seat's finger is gone: a value from stdin no longer waits for its lift.
            try compositor.writeStandardInput(slider.process, "10\n")
            try await slider.settleAfterStandardInput()
            #expect(try slider.lastValue() == 10)
            try await slider.waitForDevices(.all)
            // The old finger's lift, arriving on the new seat, belongs to no gesture.
            try await slider.touch([.up(id: 0), .frame])
            #expect(try await slider.settle().isEmpty)
            try await slider.tapGlides(toValue: 75, atX: 229)
            try await slider.quit(expectingWarnings: [])
        }
    }

    @Test("an output announced again under its name (no global_remove) replaces the old one, which is released, not kept alive by the surface")
    func outputAnnouncedAgain() async throws {
        var configuration = Configuration()
        configuration.globals[.fractionalScale] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true)
            try await slider.setOutputScale(2, expecting: (640, 96, 2))
            try compositor.announceGlobalAgain(.output)
            let client = slider.client
            try await compositor.waitUntil("a second wl_output") { $0.clients[client]?.boundGlobals["wl_output"]?.count == 2 }
            try await slider.sync()
            #expect(compositor.state.clients[client]?.requests("wl_output.release") == 1, "the replaced wl_output is released")
            try compositor.enterOutput(slider.surface)
            try await slider.setOutputScale(1, expecting: (320, 48, 1))
            try await slider.tapGlides(toValue: 75, atX: 229)
            try await slider.quit(expectingWarnings: [])
        }
    }
}

// MARK: - helpers

private extension SliderRun {
    var isRunning: Bool { compositor.state.processes[process]?.exitStatus == nil }

    /// Sends `wl_output.scale` and checks the buffer of the redraw: size and `buffer_scale`.
    func setOutputScale(_ scale: Int32, expecting: (width: Int32, height: Int32, scale: Int32)) async throws {
        try compositor.setOutputScale(scale)
        try await expectBuffer(expecting.width, expecting.height, scale: expecting.scale, after: "wl_output.scale \(scale)")
    }

    /// Sends `preferred_scale` and checks the buffer of the redraw (buffer scale 1, viewport mode).
    func sendPreferredScale(_ scale120: UInt32, expecting: (width: Int32, height: Int32)) async throws {
        try compositor.sendPreferredScale(surface, scale120: scale120)
        try await expectBuffer(expecting.width, expecting.height, scale: 1, after: "preferred_scale \(scale120)")
    }

    /// Configures the toplevel and checks the buffer committed with (or still shown after) the ack.
    func configure(_ size: Size, expecting: (width: Int32, height: Int32)) async throws {
        let serial = try compositor.configure(surface, size: size)
        try await waitForAck(serial, after: "configure \(size)")
        try await expectBuffer(expecting.width, expecting.height, scale: 1, after: "configure \(size)")
    }

    /// Configures the layer surface with unsigned sides and checks the buffer.
    func configure(layerWidth width: UInt32, height: UInt32, expecting: (width: Int32, height: Int32)) async throws {
        let serial = try compositor.configureLayer(surface, width: width, height: height)
        try await waitForAck(serial, after: "configure \(width)x\(height)")
        try await expectBuffer(expecting.width, expecting.height, scale: 1, after: "configure \(width)x\(height)")
    }

    private func waitForAck(_ serial: UInt32, after what: String) async throws {
        let surface = self.surface, process = self.process
        try await compositor.waitUntil("\(surface) to acknowledge \(what) or wlslider to end", timeout: .seconds(10)) { state in
            state.surfaces[surface]?.acks.contains { $0 >= serial } == true || state.processes[process]?.exitStatus != nil
        }
        try expectRunning(after: what)
        try await sync()
    }

    private func expectBuffer(_ width: Int32, _ height: Int32, scale: Int32, after what: String) async throws {
        try await sync()
        try expectRunning(after: what)
        let commit = try #require(try compositor.lastBufferCommit(surface))
        let buffer = try #require(commit.buffer)
        #expect(buffer.width == width && buffer.height == height && commit.bufferScale == scale,
                "after \(what): \(buffer.width)×\(buffer.height) at buffer scale \(commit.bufferScale)")
    }

    func expectRunning(after what: String) throws {
        guard isRunning else {
            throw HarnessError("wlslider ended after \(what): \(compositor.state.processes[process]?.exitStatus.map { "\($0)" } ?? "?"); stderr: \(standardError)")
        }
    }

    /// A tap at (`x`, `y`) logical glides to `value`, and the thumb ends under the finger.
    func tapGlides(toValue value: Double, atX x: Double, y: Double = 24, scale: Double = 1) async throws {
        try await catchUp()  // the redraws before happened at wlslider's own time
        try await touch([.down(id: 0, surface: surface, x: x, y: y), .frame, .up(id: 0), .frame])
        let glide = try await settle()
        #expect(glide.count > 5 && glide.last?.value == value, "a glide to \(value): \(glide)")
        let thumb = try thumb()
        #expect(abs(thumb.centerX - x * scale) <= 1, "\(thumb)")
    }

    /// Waits for the frame a stdin command asked for, then steps frames until it is over.
    func settleAfterStandardInput() async throws {
        let surface = self.surface
        try await compositor.waitUntil("a frame for the stdin command") { ($0.surfaces[surface]?.frameCallbacksPending ?? 0) > 0 }
        try await catchUp()
        try await settle()
    }

    /// Sends a target on stdin while frame callbacks are withheld and returns the lines of the
    /// glide there, which wlslider's own timer paces (real time).
    func hiddenGlide(to target: Double) async throws -> [ValueLine] {
        _ = try takeLines()
        try compositor.writeStandardInput(process, "\(target)\n")
        let process = self.process
        try await compositor.waitUntil("the glide to \(target) to end", timeout: .seconds(10)) { state in
            state.processes[process]?.standardOutputLines.last.flatMap { try? ValueLine.parse($0) }?.value == target
        }
        return try takeLines()
    }

    /// Taps Right: with `move` the value goes up one step (and glides there), else nothing happens.
    func expectKeys(move: Bool) async throws {
        try expectRunning(after: "the keymap")
        let before = try lastValue()
        try await tap("Right")
        try await settle()
        #expect(try lastValue() == (move ? before + 1 : before), move ? "Right moves the slider" : "keys are ignored")
    }

    /// Presses and releases each evdev key code.
    func tapCodes(_ codes: [UInt32]) async throws {
        let before = try lastValue()
        for code in codes { try await tap(.code(code)) }
        try await settle()
        try expectRunning(after: "key codes \(codes)")
        #expect(try lastValue() == before, "codes no keymap holds do nothing")
    }

    /// Ends wlslider with `quit` on stdin; expects exit status 0 and exactly these lines on stderr.
    func quit(expectingWarnings warnings: [String]) async throws {
        try expectRunning(after: "the scenario")
        try compositor.writeStandardInput(process, "quit\n")
        let status = try await compositor.waitForExit(process, timeout: .seconds(10))
        #expect(status == .exited(0), "stderr: \(standardError)")
        let lines = standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines == warnings.map { "wlslider: " + $0 })
    }
}
