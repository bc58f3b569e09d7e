// End-to-end touch scenarios: the real wlslider under the test compositor, touched with exact
// events on the virtual clock, checked on its value stream and on the pixels it commits.
import Testing
import TestCompositor

@Suite("wlslider scenarios: touch")
struct WlsliderTouchTests {
    @Test("a tap away from the thumb glides along the ease-in curve to the tapped value in 0.25 s of frame time")
    func tapGlidesAlongEaseIn() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor)
            let start = try slider.takeLines()
            #expect(start.map(\.value) == [0] && start.first?.phase == "idle", "the stream starts at the minimum: \(start)")

            // x = 160 is the middle of the thumb's travel (22 ... 298): value 50, far from the thumb at 0.
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            let began = try slider.takeLines()
            #expect(began.map(\.phase) == ["began"], "the press is drawn at once: \(began)")

            // The glide started at the touch's timestamp; frame callbacks come every 16 ms after it.
            var glide: [(ms: Int, line: ValueLine)] = []
            for frame in 1...20 {
                for line in try await slider.advance(by: 16) { glide.append((16 * frame, line)) }
            }
            let curve = ReferenceCurve.easeIn
            for (ms, line) in glide where ms < 250 {
                let expected = 50 * curve(Double(ms) / 250)
                #expect(abs(line.value - expected) < 2e-6, "at \(ms) ms: \(line.value), the curve says \(expected)")
                #expect(line.phase == (ms == 16 ? "ended" : "idle"), "the lift is reported with the next frame: \(line)")
            }
            #expect(glide.map(\.ms) == Array(stride(from: 16, through: 256, by: 16)), "one value per frame until the glide ends")
            // The press itself was drawn at once, a moment (the client's reaction time) into the glide.
            #expect(began.allSatisfy { $0.value >= 0 && $0.value < (glide.first?.line.value ?? 0) }, "\(began) before \(glide.first?.line.description ?? "")")
            #expect(glide.last?.line.value == 50, "the last value is exactly the target")
            let times = glide.map(\.line.t)
            #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 16) <= 1 }, "printed times follow the frame times: \(times)")
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 0, "nothing animates after the glide")

            // Pixels: the thumb sits at value 50.
            let thumb = try slider.thumb()
            #expect(abs(thumb.centerX - DefaultLayout.x(forValue: 50)) <= 0.5 && abs(thumb.centerY - 24) <= 1, "\(thumb)")
            #expect(abs(thumb.width - 20) <= 1, "a tap does not leave the thumb grown: \(thumb)")
            try await slider.terminate()
        }
    }

    @Test("a drag that starts on the thumb follows the finger: each position maps to its value, and the thumb stays under the finger")
    func dragFollowsFinger() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor)
            // The thumb rests at x = 22 (value 0); the finger lands 2 px right of its centre and catches it.
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 24, y: 30), .frame])
            let caught = try slider.takeLines().last
            #expect(caught?.value == 0 && caught?.phase == "began", "no jump when the thumb is caught: \(String(describing: caught))")

            // Positions in 1/256 px (wl_fixed) so the coordinates arrive exactly.
            for thumbX in [91.0, 160, 229, 250.75, 120.25, 22] {
                try await slider.touch([.motion(id: 0, x: thumbX + 2, y: 30), .frame])
                // A drag glides for 0.03 s after each movement: three frames later it is there.
                let printed = try await slider.advance(frames: 3)
                let expected = DefaultLayout.value(atX: thumbX)
                #expect(!printed.isEmpty && printed.allSatisfy { $0.phase == "moved" }, "\(printed)")
                #expect(abs((printed.last?.value ?? -1) - expected) < 1e-6, "finger at x \(thumbX + 2): \(printed), expected \(expected)")
                let thumb = try slider.thumb()
                #expect(abs(thumb.centerX - thumbX) <= 0.5, "the thumb follows the finger: \(thumb), expected x \(thumbX)")
            }

            // Past the end of the track the value stops at the maximum.
            try await slider.touch([.motion(id: 0, x: 400, y: 30), .frame])
            let printed = try await slider.advance(frames: 3)
            #expect(printed.last?.value == 100, "\(printed)")

            try await slider.touch([.up(id: 0), .frame])
            let end = try await slider.settle()
            #expect(end.map(\.phase) == ["ended"] && end.first?.value == 100, "lifting keeps the value: \(end)")
            try await slider.terminate()
        }
    }

    @Test("dragging 100 px off the track moves the value at half speed; past 100 px a quarter, past 150 px a tenth; back on the track it meets the finger")
    func scrubbingSpeeds() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])

            /// Moves the finger and returns the value three frames later (the drag glide lasts 0.03 s).
            func move(x: Double, y: Double) async throws -> Double {
                try await slider.touch([.motion(id: 0, x: x, y: y), .frame])
                try await slider.advance(frames: 3)
                return try slider.lastValue()
            }
            // 34.5 px along the track is 12.5 % of the range (and a whole number of 1/256 px, as
            // wl_fixed carries coordinates).
            let step = 34.5
            // On the track: full speed.
            #expect(try await move(x: 160 + step, y: 24) == 62.5)
            // Straight down, exactly 100 px from where the gesture began: the value stays.
            #expect(try await move(x: 160 + step, y: 124) == 62.5)
            // Along the track, 100 px off it: half speed (at exactly 100 px the 0.5 zone still applies).
            #expect(try await move(x: 160 + 2 * step, y: 124) == 68.75)
            // 130 px off: a quarter.
            #expect(try await move(x: 160 + 2 * step, y: 154) == 68.75)
            #expect(try await move(x: 160 + 3 * step, y: 154) == 71.875)
            // 200 px off (above the track counts the same as below): a tenth.
            #expect(try await move(x: 160 + 3 * step, y: -176) == 71.875)
            #expect(try await move(x: 160 + 4 * step, y: -176) == 73.125)
            // Back on the track the value meets the finger again: 138 px right of the start is 100.
            #expect(try await move(x: 160 + 4 * step, y: 24) == 100)
            let thumb = try slider.thumb()
            #expect(abs(thumb.centerX - DefaultLayout.x(forValue: 100)) <= 0.5, "\(thumb)")

            try await slider.touch([.up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 100)
            try await slider.terminate()
        }
    }

    @Test("the thumb's diameter doubles over 0.3 s while held and shrinks back over 0.3 s after lift, measured in the committed pixels")
    func thumbGrowsWhileHeld() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            let rest = try slider.thumb()
            #expect(abs(rest.width - 20) <= 1 && abs(rest.height - 20) <= 1, "resting diameter 20 px: \(rest)")
            #expect(abs(rest.centerX - 160) <= 0.5 && abs(rest.centerY - 24) <= 1, "\(rest)")

            let curve = ReferenceCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)  // the thumb tweens ease-in-out
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 161, y: 25), .frame])
            var widths: [Int] = []
            for frame in 1...20 {
                try await slider.advance(by: 16)
                let thumb = try slider.thumb()
                let expected = 20 * (1 + curve(min(Double(16 * frame) / 300, 1)))
                #expect(abs(Double(thumb.width) - expected) <= 1.5 && abs(Double(thumb.height) - expected) <= 1.5,
                        "at \(16 * frame) ms: \(thumb), expected diameter \(expected)")
                #expect(abs(thumb.centerX - 160) <= 0.5, "the thumb grows in place: \(thumb)")
                widths.append(thumb.width)
            }
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 <= $1 }, "growing: \(widths)")
            #expect(abs(widths.last! - 40) <= 1, "held: 40 px, twice the resting diameter: \(widths)")
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 0, "nothing moves once grown")
            #expect(try slider.lines().map(\.phase) == ["idle", "began"], "holding does not move the value")

            try await slider.touch([.up(id: 0), .frame])
            widths = []
            for frame in 1...20 {
                try await slider.advance(by: 16)
                let thumb = try slider.thumb()
                let expected = 20 * (2 - curve(min(Double(16 * frame) / 300, 1)))
                #expect(abs(Double(thumb.width) - expected) <= 1.5, "at \(16 * frame) ms after lift: \(thumb), expected \(expected)")
                widths.append(thumb.width)
            }
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 >= $1 }, "shrinking: \(widths)")
            #expect(abs(widths.last! - 20) <= 1, "back to 20 px: \(widths)")
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 0)
            #expect(try slider.lines().map(\.phase) == ["idle", "began", "ended"])
            try await slider.terminate()
        }
    }

    @Test("a second finger neither jumps nor drags the slider while the first holds it, and its lift ends nothing")
    func secondFingerIgnored() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])
            _ = try slider.takeLines()

            // Finger 1 lands far from the thumb (a first finger there would jump to ~89) and slides.
            try await slider.touch([.down(id: 1, surface: slider.surface, x: 270, y: 24), .frame])
            try await slider.touch([.motion(id: 1, x: 60, y: 24), .frame])
            var printed = try await slider.advance(frames: 20)
            try await slider.touch([.up(id: 1), .frame])
            printed += try await slider.advance(frames: 3)
            #expect(printed.isEmpty, "finger 1 changes nothing: \(printed)")
            #expect(abs(try slider.thumb().centerX - 160) <= 0.5)

            // Finger 0 still drives: 34.5 px right is 12.5 % more.
            try await slider.touch([.motion(id: 0, x: 194.5, y: 24), .frame])
            try await slider.advance(frames: 3)
            #expect(try slider.lastValue() == 62.5)
            try await slider.touch([.up(id: 0), .frame])
            try await slider.settle()
            let phases = try slider.lines().map(\.phase)
            #expect(phases.filter { $0 == "began" }.count == 1 && phases.filter { $0 == "ended" }.count == 1, "one gesture: \(phases)")
            #expect(try slider.lastValue() == 62.5)
            #expect(abs(try slider.thumb().centerX - DefaultLayout.x(forValue: 62.5)) <= 0.5)
            try await slider.terminate()
        }
    }

    @Test("wl_touch.cancel glides the value back to where it was before the gesture, and shrinks the thumb")
    func cancelGlidesBack() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "20"])
            // A press at x = 229 heads for 75; five frames into that glide the compositor cancels.
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 229, y: 24), .frame])
            let forward = try await slider.advance(frames: 5)
            let reached = try slider.lastValue()
            #expect(reached > 20 && reached < 75, "on its way: \(reached)")

            try await slider.touch([.cancel])
            // The cancel carries no timestamp: it happened at wlslider's own time, some way past the
            // last frame; the clock first catches up with that.
            let caughtUp = try await slider.catchUp()
            let back = try await slider.settle()
            #expect(back.first?.phase == "cancelled", "\(back)")
            #expect(back.dropFirst().allSatisfy { $0.phase == "idle" }, "\(back)")
            let values = back.map(\.value)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 > $1 }, "gliding back down: \(values)")
            if caughtUp < 150 {
                // Unless the machine was so slow that most of the glide passed before the first frame.
                #expect(values.count >= 6, "a glide, frame by frame: \(values) (\(caughtUp) ms caught up)")
            }
            #expect(values.last == 20, "exactly where it was: \(values)")
            // The glide back lasts 0.25 s from the cancel, which came after the last frame before it
            // (how long after depends on the machine: cancel carries no timestamp).
            let lastForward = try #require(forward.last?.t), arrived = try #require(back.last?.t)
            #expect(arrived - lastForward >= 249, "back after \(arrived - lastForward) ms")
            let thumb = try slider.thumb()
            #expect(abs(thumb.width - 20) <= 1 && abs(thumb.centerX - DefaultLayout.x(forValue: 20)) <= 0.5, "\(thumb)")
            try await slider.terminate()
        }
    }

    @Test("a lift without a following wl_touch.frame (weston issue 44) still ends the gesture and shrinks the thumb")
    func liftWithoutFrameEndsGesture() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])
            try await slider.touch([.motion(id: 0, x: 194.5, y: 24), .frame])
            try await slider.advance(frames: 20)
            #expect(try slider.lastValue() == 62.5)
            #expect(abs(try slider.thumb().width - 40) <= 1, "grown while held")

            try await slider.touch([.up(id: 0)])  // and no frame
            let after = try await slider.settle()
            #expect(after.map(\.phase) == ["ended"] && after.first?.value == 62.5, "\(after)")
            let thumb = try slider.thumb()
            #expect(abs(thumb.width - 20) <= 1, "shrunk after the lift: \(thumb)")

            // A late frame, should one come after all, changes nothing.
            try await slider.touch([.frame])
            #expect(try compositor.surface(slider.surface).frameCallbacksPending == 0)
            let lines = try slider.takeLines()
            #expect(lines.isEmpty, "\(lines)")
            try await slider.terminate()
        }
    }

    @Test("losing the touch capability mid-gesture ends the gesture where it is; a returning touch device works again")
    func touchRemovedMidGesture() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])
            try await slider.touch([.motion(id: 0, x: 194.5, y: 24), .frame])
            try await slider.advance(frames: 3)
            #expect(try slider.lastValue() == 62.5)

            try compositor.setSeatCapabilities([.pointer, .keyboard])
            try await slider.catchUp()  // the device's removal carries no timestamp
            let after = try await slider.settle()
            #expect(after.map(\.phase) == ["ended"] && after.first?.value == 62.5, "ended, value kept: \(after)")
            #expect(abs(try slider.thumb().width - 20) <= 1)
            let client = slider.client
            try await compositor.waitUntil("the client to release its wl_touch") { $0.clients[client]?.requests("wl_touch.release") == 1 }

            try compositor.setSeatCapabilities(.all)
            try await compositor.waitUntil("a new wl_touch") { $0.clients[client]?.requests("wl_seat.get_touch") == 2 }
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 91, y: 24), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 25, "the new device jumps the slider as usual")
            try await slider.terminate()
        }
    }

    @Test("a value from stdin while a finger holds the slider waits: the gesture wins, the stdin target applies after the lift and the settle window")
    func stdinWaitsForGesture() async throws {
        try await withTestCompositor { compositor in
            // A settle window of 1 s, longer than the thumb's 0.3 s shrink after the lift: the
            // frames of the shrink, stepped first, cannot run into it.
            let slider = try await SliderRun.launch(compositor, ["--value", "50", "--settle", "1"], standardInput: true)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])

            // "10" is read while the finger holds. A bad line after it is reported on stderr: once that
            // appears, wlslider has read "10" too.
            try compositor.writeStandardInput(slider.process, "10\nbogus\n")
            let process = slider.process
            try await compositor.waitUntil("wlslider to report the bad line") { ($0.processes[process]?.standardError ?? "").contains("bogus") }
            try await slider.catchUp()  // stdin commands carry no timestamp
            try await slider.advance(frames: 20)
            let lines = try slider.lines()
            #expect(lines.last?.value == 50, "the held slider does not move: \(lines)")

            try await slider.touch([.motion(id: 0, x: 194.5, y: 24), .frame])
            try await slider.advance(frames: 3)
            #expect(try slider.lastValue() == 62.5, "the finger still drives")

            // After the lift the target waits the settle window too: a controller bound to the
            // value may still be sending what the finger made. The window ends once it has passed
            // both on wlslider's own timer, in real time (stepping the virtual clock cannot end
            // it), and on the engine's clock from the lift's timestamp.
            let lifted = ContinuousClock.now
            try await slider.touch([.up(id: 0), .frame])
            let lift = try await slider.settle()
            #expect(lift.first?.phase == "ended" && lift.allSatisfy { abs($0.value - 62.5) < 0.01 },
                    "the lift is drawn where the finger left the slider, and nothing glides yet: \(lift)")
            let surface = slider.surface
            try await compositor.waitUntil("the settle window to end: a frame for the glide to 10") { ($0.surfaces[surface]?.frameCallbacksPending ?? 0) > 0 }
            let waited = ContinuousClock.now - lifted
            #expect(waited >= .seconds(1), "the stdin target applied \(waited) after the lift, inside the settle window")

            // Then it applies: the redraw at the window's end is drawn at once, a moment (wlslider's
            // own reaction time) into the glide, and the frames stepped from that moment on run the
            // rest of a whole 0.25 s glide down to 10.
            try await slider.sync()
            let atEnd = try slider.takeLines()
            let redraw = try #require(atEnd.last, "no line for the redraw at the window's end")
            try await slider.catchUp(toEngineTime: redraw.t)  // the timer's moment carries no timestamp
            let glide = atEnd + (try await slider.settle())
            let values = glide.map(\.value)
            #expect(values.first.map { $0 <= 62.5 && $0 > 60 } == true && zip(values, values.dropFirst()).allSatisfy { $0 > $1 } && values.last == 10,
                    "then glides from 62.5 to 10: \(glide)")
            #expect((15...17).contains(values.count), "over 0.25 s: \(values.count) frames")
            if let ended = lift.first, let start = glide.first {
                #expect(start.t - ended.t >= 1000, "the glide starts \(start.t - ended.t) ms of engine time after the lift")
            }
            #expect(slider.standardError.split(separator: "\n").count == 1, "one line for the bad command: \(slider.standardError)")

            // Without a finger, stdin moves the slider directly.
            try compositor.writeStandardInput(slider.process, "+5\n")
            try await compositor.waitUntil("a frame for the stdin command") { ($0.surfaces[surface]?.frameCallbacksPending ?? 0) > 0 }
            try await slider.catchUp()
            try await slider.settle()
            #expect(try slider.lastValue() == 15)
            try await slider.terminate(allowingStandardError: true)
        }
    }

    @Test("the settle window runs on the compositor's clock too: with frames whose clock runs slower than real time, the target waits until that clock has run the window")
    func settleWindowFollowsTheCompositorsClock() async throws {
        try await withTestCompositor { compositor in
            // A 2 s window: the shrink below takes 0.6 s of real time or more, over 1 s on a loaded
            // machine, and must be over before the window's real-time timer runs out.
            let slider = try await SliderRun.launch(compositor, ["--value", "50", "--settle", "2"], standardInput: true)
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame])
            try await slider.touch([.motion(id: 0, x: 194.5, y: 24), .frame])
            try await slider.advance(frames: 3)
            try compositor.writeStandardInput(slider.process, "10\nbogus\n")
            let process = slider.process
            try await compositor.waitUntil("wlslider to read the target") { ($0.processes[process]?.standardError ?? "").contains("bogus") }
            _ = try slider.takeLines()
            try await slider.touch([.up(id: 0), .frame])

            // The thumb's 0.3 s shrink in frames 4 ms apart on the virtual clock and at least 8 ms
            // apart in real time: by its end the compositor's clock lags real time by 0.3 s or
            // more, so wlslider's 2 s timer runs out before that clock has moved 2 s past the lift.
            var lift: [ValueLine] = []
            let surface = slider.surface
            while try compositor.surface(surface).frameCallbacksPending > 0 {
                try await Task.sleep(for: .milliseconds(8))
                lift += try await slider.advance(by: 4)
            }
            // The lift is drawn with the first frame after it, 4 ms later on this clock.
            let ended = try #require(lift.first, "the lift is not drawn")
            #expect(ended.phase == "ended" && lift.allSatisfy { $0.value == 62.5 }, "\(lift)")

            // The window's end: a redraw and a frame for the glide.
            try await compositor.waitUntil("the settle window to end: a frame for the glide to 10") { ($0.surfaces[surface]?.frameCallbacksPending ?? 0) > 0 }
            try await slider.sync()
            let redraw = try #require(try slider.takeLines().last, "no line for the redraw at the window's end")
            #expect(redraw.t - ended.t >= 1996, "the target applied \(redraw.t - ended.t) ms of the compositor's time after the lift: \(redraw)")
            try await slider.catchUp(toEngineTime: redraw.t)
            let glide = try await slider.settle()
            #expect(glide.last?.value == 10 && glide.allSatisfy { $0.value < redraw.value }, "then it glides to 10: \(glide)")
            try await slider.terminate(allowingStandardError: true)
        }
    }
}
