// libxkbcommon and libwayland-cursor are loaded when first needed, not linked: a wlslider that got
// no key and no pointer has neither mapped; the first key loads libxkbcommon, a pointer entering
// where the compositor offers no cursor-shape-v1 loads libwayland-cursor. Without either (the
// WLSLIDER_LIBXKBCOMMON / WLSLIDER_LIBWAYLAND_CURSOR test hooks name a library that is missing, or
// one without the functions), one line on stderr and the rest of the slider works.
import Foundation
import Testing
import TestCompositor

@Suite("wlslider scenarios: libraries loaded at run time")
struct WlsliderRuntimeLibraryTests {
    @Test("no key and no pointer: neither libxkbcommon nor libwayland-cursor is mapped, keyboard focus alone maps nothing; the first key loads libxkbcommon and moves the slider")
    func keyboardLoadsOnFirstKey() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try await slider.tapExpecting(75, atX: 229)
            #expect(try !slider.maps().contains("libxkbcommon"), "libxkbcommon is mapped before any key")
            #expect(try !slider.maps().contains("libwayland-cursor"), "libwayland-cursor is mapped without a pointer")

            // enter carries the (empty) modifiers: nothing to compile a keymap for yet.
            try compositor.keyboard.enter(slider.surface)
            try await slider.sync()
            #expect(try !slider.maps().contains("libxkbcommon"), "libxkbcommon is mapped on keyboard focus")

            try await slider.tap("Right")
            try await slider.settle()
            #expect(try slider.lastValue() == 76)
            #expect(try slider.maps().contains("libxkbcommon.so.0"))
            // A modifier held and released, then another key.
            try await slider.press("Shift_L")
            try await slider.release("Shift_L")
            try await slider.tap("Page_Up")
            try await slider.settle()
            #expect(try slider.lastValue() == 86)
            #expect(slider.standardError == "", "\(slider.standardError)")
            try await slider.terminate()
        }
    }

    @Test("a pointer entering where the compositor offers cursor-shape-v1 sets the shape and loads nothing; without it, the first enter loads libwayland-cursor and sets a themed cursor surface")
    func cursorLoadsOnlyWithoutCursorShape() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame])
            let client = slider.client
            #expect(compositor.state.cursorShapes.filter { $0.client == client }.map(\.name) == ["default"])
            #expect(try !slider.maps().contains("libwayland-cursor"), "libwayland-cursor is mapped though cursor shapes are offered")
            try await slider.terminate()
        }

        var configuration = Configuration()
        configuration.globals[.cursorShape] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, ["--value", "50"])
            #expect(try !slider.maps().contains("libwayland-cursor"), "libwayland-cursor is mapped before a pointer entered")
            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame])
            let client = slider.client
            let cursors = compositor.state.cursorSurfaces.filter { $0.client == client }
            #expect(cursors.count == 1 && cursors.first?.surface != nil, "\(cursors)")
            let libraries = try slider.libraries()
            #expect(libraries.contains { $0.contains("libwayland-cursor.so.0") }, "libraries: \(libraries)")
            #expect(slider.standardError == "", "\(slider.standardError)")
            try await slider.terminate()
        }
    }

    @Test("without libxkbcommon: keys are ignored with one line on stderr, however many keymaps and keys come; touch still works")
    func withoutXKBCommon() async throws {
        try await withTestCompositor { compositor in
            // A library that does not exist plays a system without libxkbcommon.
            let missing = "libxkbcommon-wlslider-test-missing.so.0"
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true,
                                                    environment: ["WLSLIDER_LIBXKBCOMMON": missing])
            try compositor.keyboard.enter(slider.surface)
            try await slider.tapRightExpecting(50)
            try await slider.press("Shift_L")
            try await slider.tapRightExpecting(50)
            try await slider.release("Shift_L")
            try compositor.keyboard.resendKeymap()
            try await slider.tapRightExpecting(50)
            try await slider.tapExpecting(75, atX: 229)
            #expect(try !slider.maps().contains("libxkbcommon"))
            try await slider.quitExpecting([
                "wl_keyboard: libxkbcommon could not be loaded (\(missing): cannot open shared object file: No such file or directory); "
                    + "keys are ignored; install libxkbcommon0 for them",
            ])
        }
    }

    @Test("without libwayland-cursor's functions: no cursor image, one line on stderr however often the pointer enters; the pointer still drags")
    func withoutWaylandCursor() async throws {
        var configuration = Configuration()
        configuration.globals[.cursorShape] = nil
        try await withTestCompositor(configuration) { compositor in
            // A library that exists but has none of libwayland-cursor's functions: the other way loading fails.
            let slider = try await SliderRun.launch(compositor, ["--value", "50"], standardInput: true,
                                                    environment: ["WLSLIDER_LIBWAYLAND_CURSOR": "libxkbcommon.so.0"])
            for _ in 0..<2 {
                try compositor.pointer.enter(slider.surface, x: 160, y: 24)
                try await slider.pointer([.frame])
                try compositor.pointer.leave()
                try await slider.sync()
            }
            let client = slider.client
            #expect(compositor.state.cursorSurfaces.filter { $0.client == client }.isEmpty)
            #expect(try !slider.maps().contains("libwayland-cursor"))

            try compositor.pointer.enter(slider.surface, x: 160, y: 24)
            try await slider.pointer([.frame, .button(.left, .pressed), .frame, .motion(x: 194.5, y: 24), .frame,
                                      .button(.left, .released), .frame])
            #expect(try await slider.settle().last?.value == 62.5)
            try await slider.quitExpecting([
                "wl_pointer: no wp_cursor_shape_manager_v1, and libwayland-cursor could not be loaded "
                    + "(libxkbcommon.so.0 has no wl_cursor_theme_load); the slider sets no cursor image; install libwayland-cursor0 for one",
            ])
        }
    }
}

private extension SliderRun {
    /// A tap at `x` (logical) on the track: the value glides to `value`.
    func tapExpecting(_ value: Double, atX x: Double) async throws {
        try await catchUp()  // the redraws before happened at wlslider's own time
        try await touch([.down(id: 0, surface: surface, x: x, y: 24), .frame, .up(id: 0), .frame])
        let glide = try await settle()
        #expect(glide.last?.value == value, "a glide to \(value): \(glide)")
    }

    /// Taps Right, and the value is `value` after it (the same as before: keys are ignored).
    func tapRightExpecting(_ value: Double) async throws {
        try await tap("Right")
        try await settle()
        #expect(compositor.state.processes[process]?.exitStatus == nil, "wlslider ended; stderr: \(standardError)")
        #expect(try lastValue() == value)
    }

    /// Ends wlslider with `quit` on stdin; expects exit status 0 and exactly these lines on stderr.
    func quitExpecting(_ warnings: [String]) async throws {
        try compositor.writeStandardInput(process, "quit\n")
        let status = try await compositor.waitForExit(process, timeout: .seconds(10))
        #expect(status == .exited(0), "stderr: \(standardError)")
        let lines = standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines == warnings.map { "wlslider: " + $0 })
    }
}
