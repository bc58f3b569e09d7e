// End-to-end pointer and keyboard scenarios: wheel detents in all three ways compositors report
// them, a mouse drag, arrow/Page/Home/End keys and key repeat, against the real wlslider.
import Testing
import TestCompositor

@Suite("wlslider scenarios: pointer and keyboard")
struct WlsliderPointerKeyboardTests {
    @Test("wheel detents (axis_value120) move one 1 % step each, fractions of 120 add up, and the value glides to each exactly")
    func wheelValue120() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            #expect(compositor.state.clients[slider.client]?.boundVersion(.seat) == 8)
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame])

            /// Sends one wheel frame and returns the lines of the glide that follows.
            func wheel(_ value120: Int32, axis: PointerAxis = .vertical) async throws -> [ValueLine] {
                try await slider.pointer([.axisSource(.wheel), .axisValue120(axis, value120), .axis(axis, Double(value120) / 8), .frame])
                return try await slider.settle()
            }
            // Scrolling down lowers the value: one detent, one step, gliding the whole way.
            let down = try await wheel(120)
            #expect(down.last?.value == 49, "\(down)")
            #expect(down.count >= 10 && zip(down, down.dropFirst()).allSatisfy { $0.value > $1.value }, "a glide, not a jump: \(down)")
            #expect(try await wheel(-240).last?.value == 51, "two detents up")
            // Half detents: nothing until the second half.
            #expect(try await wheel(-60).isEmpty, "half a detent does not move")
            #expect(try await wheel(-60).last?.value == 52, "the second half completes a step")
            // A high-resolution wheel: four 30ths.
            for _ in 0..<3 { #expect(try await wheel(-30).isEmpty) }
            #expect(try await wheel(-30).last?.value == 53)
            // Scrolling right raises the value.
            #expect(try await wheel(120, axis: .horizontal).last?.value == 54)
            let thumb = try slider.thumb()
            #expect(abs(thumb.centerX - DefaultLayout.x(forValue: 54)) <= 0.5, "\(thumb)")
            try await slider.terminate()
        }
    }

    @Test("wheel detents on an older seat: axis_discrete (wl_seat 7), and continuous axis pixels without frames (wl_seat 4)")
    func wheelOlderSeats() async throws {
        var seven = Configuration()
        seven.globals[.seat] = 7
        try await withTestCompositor(seven) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            #expect(compositor.state.clients[slider.client]?.boundVersion(.seat) == 7)
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame])
            try await slider.wheel(steps: 1)  // axis_source, axis_discrete, axis, frame
            #expect(try await slider.settle().last?.value == 49)
            try await slider.wheel(steps: -3)
            #expect(try await slider.settle().last?.value == 52)
            try await slider.terminate()
        }

        var four = Configuration()
        four.globals[.seat] = 4
        try await withTestCompositor(four) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            #expect(compositor.state.clients[slider.client]?.boundVersion(.seat) == 4)
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            // No frames before wl_pointer 5: each event stands alone. Scrolling up by 34.5 px moves
            // the value as far as dragging the thumb 34.5 px would: 12.5 % of the range.
            try await slider.pointer([.axis(.vertical, -34.5)])
            #expect(try await slider.settle().last?.value == 62.5)
            try await slider.terminate()
        }
    }

    @Test("a mouse drag: the left button on the thumb catches it, motion drags it, release ends the gesture; a press off the thumb jumps")
    func pointerDrag() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame])
            try await slider.pointer([.button(.left, .pressed), .frame])
            let press = try slider.takeLines()
            #expect(press.last?.phase == "began" && press.last?.value == 50, "caught without a jump: \(press)")
            try await slider.pointer([.motion(x: 194.5, y: 30), .frame])
            let drag = try await slider.advance(frames: 20)
            #expect(drag.last?.value == 62.5 && drag.allSatisfy { $0.phase == "moved" }, "\(drag)")
            #expect(abs(try slider.thumb().width - 40) <= 1, "the thumb grows under the mouse too")
            try await slider.pointer([.button(.left, .released), .frame])
            let released = try await slider.settle()
            #expect(released.first?.phase == "ended" && released.last?.value == 62.5, "\(released)")

            // A right click does nothing; a left click at x = 91 jumps to 25.
            try await slider.pointer([.motion(x: 91, y: 24), .frame, .button(.right, .pressed), .frame, .button(.right, .released), .frame])
            #expect(try await slider.settle().isEmpty)
            try await slider.pointer([.button(.left, .pressed), .frame, .button(.left, .released), .frame])
            let jump = try await slider.settle()
            #expect(jump.first?.phase == "began" && jump.last?.value == 25, "\(jump)")
            try await slider.terminate()
        }
    }

    @Test("losing the pointer capability mid-drag ends the gesture where it is")
    func pointerRemovedMidDrag() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame, .button(.left, .pressed), .frame, .motion(x: 194.5, y: 24), .frame])
            try await slider.advance(frames: 3)
            #expect(try slider.lastValue() == 62.5)
            try compositor.setSeatCapabilities([.touch, .keyboard])
            try await slider.catchUp()  // the device's removal carries no timestamp
            let after = try await slider.settle()
            #expect(after.map(\.phase) == ["ended"] && after.first?.value == 62.5, "\(after)")
            #expect(abs(try slider.thumb().width - 20) <= 1)
            let client = slider.client
            try await compositor.waitUntil("the client to release its wl_pointer") { $0.clients[client]?.requests("wl_pointer.release") == 1 }
            try await slider.terminate()
        }
    }

    @Test("arrow keys move one step, Page Up/Down a tenth, Home and End to the ends, each gliding there")
    func keys() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try compositor.keyboard.enter(slider.surface)
            for (key, expected) in [("Right", 51.0), ("Left", 50), ("Up", 51), ("Down", 50), ("Page_Up", 60), ("Page_Down", 50),
                                    ("End", 100), ("Home", 0), ("KP_Right", 1), ("a", 1)] {
                try await slider.tap(Key.keysym(key))
                let glide = try await slider.settle()
                #expect((try? slider.lastValue()) == expected, "\(key): \(glide)")
                #expect(glide.allSatisfy { $0.phase == "idle" }, "keys are no gesture: \(glide)")
            }
            let thumb = try slider.thumb()
            #expect(abs(thumb.centerX - DefaultLayout.x(forValue: 1)) <= 0.5 && abs(thumb.width - 20) <= 1, "\(thumb)")
            // Without keyboard focus keys do nothing.
            try compositor.keyboard.leave()
            try await slider.sync()
            #expect(throws: TestCompositorError.self) { try compositor.keyboard.tap("Right") }
            try await slider.terminate()
        }
    }

    @Test("a held arrow key repeats at the compositor's repeat_info rate until released or focus leaves; rate 0 means no repeat")
    func keyRepeat() async throws {
        var configuration = Configuration()
        configuration.keyRepeat = (rate: 40, delay: 150)
        try await withTestCompositor(configuration) { compositor in
            // Steps of 1 as with the default range, but room for a starved test process to fall
            // behind a repeating key for many seconds without the value reaching the maximum.
            let slider = try await SliderRun.launch(compositor, ["--value", "50", "--max", "1000", "--step", "1"])
            try compositor.keyboard.enter(slider.surface)
            try await slider.sync()
            // Key repeat runs on wlslider's real-time timer: let frames come in real time too.
            let clock = ContinuousClock(), pressed = clock.now
            try await slider.press("Right")
            try await slider.framesInRealTime(until: "the held key to repeat six times") { ($0.last?.value ?? 0) >= 57 }
            try await slider.release("Right")
            let held = pressed.duration(to: clock.now)
            try await slider.catchUp()  // repeats are stamped with wlslider's own clock
            let final = try await slider.settle()
            let all = try slider.lines()
            let value = try slider.lastValue()
            #expect(value >= 57 && value == value.rounded(), "whole steps: \(final)")
            let values = all.map(\.value)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "rising while held: \(values)")
            // Never faster than repeat_info allows: one press, then one step per 25 ms after 150 ms.
            let seconds = Double(held.components.seconds) + Double(held.components.attoseconds) * 1e-18
            #expect(value - 51 <= ((seconds - 0.150) / 0.025).rounded(.down) + 1, "\(value - 51) repeats in \(seconds) s")
            // Released: no more steps, no more drawing.
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(300)) == 0)
            #expect(try slider.lastValue() == value)

            // Rate 0: a held key moves once.
            try compositor.keyboard.setRepeat(rate: 0, delay: 50)
            try await slider.sync()
            try await slider.press("Left")
            try await slider.settle()
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(300)) == 0, "no repeats")
            try await slider.release("Left")
            #expect(try slider.lastValue() == value - 1)

            // Losing keyboard focus while a key repeats stops the repeat.
            try compositor.keyboard.setRepeat(rate: 40, delay: 100)
            try await slider.press("Right")
            let before = value - 1
            try await slider.framesInRealTime(until: "the key to repeat three times") { ($0.last?.value ?? 0) >= before + 4 }
            try compositor.keyboard.leave()
            try await slider.catchUp()
            try await slider.settle()
            let left = try slider.lastValue()
            #expect(left >= before + 4 && left == left.rounded(), "\(left)")
            #expect(try await compositor.requestRate(of: slider.client, over: .milliseconds(300)) == 0, "no repeats without focus")
            #expect(try slider.lastValue() == left)
            try await slider.terminate()
        }
    }
}
