// Window decorations: server-side through xdg-decoration where the compositor offers it; where it
// does not, libdecor, and without libdecor one line on stderr and a bare window that still works.
import Foundation
import Testing
import TestCompositor

@Suite("wlslider scenarios: window decorations")
struct WlsliderDecorationTests {
    @Test("xdg-decoration offered: wlslider asks for server-side decorations before its first configure, writes nothing on stderr, and destroys the decoration before its toplevel")
    func serverSide() async throws {
        try await withTestCompositor { compositor in
            let slider = try await SliderRun.launch(compositor)
            let toplevel = try #require(try compositor.surface(slider.surface).toplevel)
            #expect(toplevel.hasDecorationObject)
            #expect(toplevel.requestedDecorationModes == [.serverSide], "\(toplevel.requestedDecorationModes)")
            #expect(compositor.state.clients[slider.client]?.boundVersion(.decorationManager) == 1)
            try await slider.terminate()
            #expect(compositor.state.protocolErrors(of: slider.client).isEmpty, "\(compositor.state.protocolErrors)")
        }
    }

    @Test("no xdg-decoration and no libdecor: one line on stderr says the window has no title bar, and the undecorated window works")
    func withoutDecorations() async throws {
        var configuration = Configuration()
        configuration.globals[.decorationManager] = nil
        try await withTestCompositor(configuration) { compositor in
            // A library that does not exist plays a system without libdecor.
            let slider = try await SliderRun.launch(compositor, environment: ["WLSLIDER_LIBDECOR": "libdecor-wlslider-test-missing.so.0"])
            let toplevel = try #require(try compositor.surface(slider.surface).toplevel)
            #expect(!toplevel.hasDecorationObject && toplevel.title == "wlslider")
            #expect(slider.firstCommit.buffer?.width == 320 && slider.firstCommit.buffer?.height == 48)
            let process = slider.process
            try await compositor.waitUntil("the notice on stderr") { $0.processes[process]?.standardError.hasSuffix("\n") == true }
            let lines = slider.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(slider.standardError)")
            let line = String(lines.first ?? "")
            #expect(line.contains("zxdg_decoration_manager_v1") && line.contains("libdecor-wlslider-test-missing.so.0")
                    && line.contains("no title bar"), "\(line)")
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 50)
            try await slider.terminate(allowingStandardError: true)
        }
    }

    @Test("WLSLIDER_LIBDECOR=none: a bare window without a word on stderr, libdecor never mapped, the slider works")
    func decorationsTurnedOff() async throws {
        var configuration = Configuration()
        configuration.globals[.decorationManager] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor, environment: ["WLSLIDER_LIBDECOR": "none"])
            let toplevel = try #require(try compositor.surface(slider.surface).toplevel)
            #expect(!toplevel.hasDecorationObject && toplevel.title == "wlslider")
            try await slider.touch([.down(id: 0, surface: slider.surface, x: 160, y: 24), .frame, .up(id: 0), .frame])
            try await slider.settle()
            #expect(try slider.lastValue() == 50)
            let libraries = try slider.libraries()
            #expect(libraries.contains { $0.contains("libwayland-client") }, "the whole map was read: \(libraries)")
            #expect(!libraries.contains { $0.contains("libdecor") }, "libdecor is mapped: \(libraries)")
            #expect(slider.standardError == "", "\(slider.standardError)")
            try await slider.terminate()
        }
    }

    @Test("no xdg-decoration and no wl_subcompositor for libdecor: one line, and a bare window",
          .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libdecor-0.so.0")
                   || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libdecor-0.so.0"),
                   "libdecor-0-0 is installed"))
    func withoutSubcompositor() async throws {
        var configuration = Configuration()
        configuration.globals[.decorationManager] = nil
        try await withTestCompositor(configuration) { compositor in
            let slider = try await SliderRun.launch(compositor)
            #expect(try compositor.surface(slider.surface).toplevel?.hasDecorationObject == false)
            let process = slider.process
            try await compositor.waitUntil("the notice on stderr") { $0.processes[process]?.standardError.hasSuffix("\n") == true }
            let lines = slider.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains("wl_subcompositor") == true, "\(slider.standardError)")
            try await slider.terminate(allowingStandardError: true)
        }
    }
}
