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
