// Globals, toplevels and layer surfaces of the test compositor, checked with the raw client.
import CWaylandClient
import CWaylandProtocols
import Testing
import TestCompositor

@Suite("Test compositor: globals and shells")
struct TestCompositorShellTests {
    @Test("every global is advertised at its highest implemented version by default")
    func defaultGlobals() async throws {
        try await withTestCompositor { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            let expected: [String: UInt32] = [
                "wl_compositor": 5, "wl_shm": 1, "xdg_wm_base": 5, "zwlr_layer_shell_v1": 4, "wl_seat": 8, "wl_output": 4,
                "wp_viewporter": 1, "wp_fractional_scale_manager_v1": 1, "wp_cursor_shape_manager_v1": 1,
                "zxdg_decoration_manager_v1": 1,
            ]
            for (interface, version) in expected {
                #expect(client.version(of: interface) == version, "\(interface)")
            }
            #expect(client.globals.count == expected.count)
        }
    }

    @Test("a compositor can start without a global, or with an old version of one")
    func missingAndOldGlobals() async throws {
        var configuration = Configuration()
        configuration.globals[.layerShell] = nil
        configuration.globals[.fractionalScale] = nil
        configuration.globals[.compositor] = 3
        try await withTestCompositor(configuration) { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            #expect(!client.has("zwlr_layer_shell_v1"))
            #expect(!client.has("wp_fractional_scale_manager_v1"))
            #expect(client.version(of: "wl_compositor") == 3)
            #expect(compositor.state.globals[.layerShell] == nil)
        }
    }

    @Test("a global removed at runtime is withdrawn from the registry, and can come back")
    func removeAndAddGlobal() async throws {
        try await withTestCompositor { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            try compositor.removeGlobal(.fractionalScale)
            try client.roundtrip()
            #expect(client.events.contains("wl_registry.global_remove wp_fractional_scale_manager_v1"))
            #expect(!client.has("wp_fractional_scale_manager_v1"))
            #expect(throws: TestCompositorError.self) { try compositor.removeGlobal(.fractionalScale) }
            try compositor.addGlobal(.fractionalScale)
            try client.roundtrip()
            #expect(client.has("wp_fractional_scale_manager_v1"))
        }
    }

    @Test("a toplevel's first configure, ack, title, app id and committed pixels are recorded")
    func toplevelRecorded() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor, width: 64, height: 48, color: 0xff20_4060) { client, _ in }
            xdg_toplevel_set_title(mapped.toplevel, "raw title")
            xdg_toplevel_set_app_id(mapped.toplevel, "org.example.raw")
            try mapped.client.roundtrip()
            #expect(mapped.client.events.contains("xdg_toplevel.configure 0 0 [4]"), "0×0 and activated by default")
            let surface = try compositor.surface(mapped.id)
            #expect(surface.toplevel?.title == "raw title")
            #expect(surface.toplevel?.appID == "org.example.raw")
            #expect(surface.configures.map(\.size) == [Size(width: 0, height: 0)])
            #expect(surface.acks == surface.configures.map(\.serial))
            let commit = try #require(surface.lastBufferCommit)
            #expect(commit.sequence == 2, "the initial commit, then the one with the buffer")
            #expect(commit.ackedSerial == surface.configures.first?.serial)
            #expect(commit.bufferDamage == [Rect(x: 0, y: 0, width: 64, height: 48)])
            #expect(commit.buffer?.stride == 256)
            let image = try #require(commit.buffer?.image)
            #expect(image.width == 64 && image.height == 48 && image.pixels.allSatisfy { $0 == 0xff20_4060 })
            #expect(surface.hasBuffer && surface.isOnOutput == false, "the raw client bound no wl_output")
        }
    }

    @Test("the test configures any size (0×0 included) with states and bounds, and sends close")
    func configureAnySize() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor)
            let mark = mapped.client.events.count
            let serial = try compositor.configure(mapped.id, size: Size(width: 0, height: 0), states: [.maximized, .activated], bounds: Size(width: 800, height: 600))
            let serial2 = try compositor.configure(mapped.id, size: Size(width: 123, height: 45), states: [])
            try compositor.close(mapped.id)
            try mapped.client.roundtrip()
            #expect(mapped.client.events(since: mark) == [
                "xdg_toplevel.configure_bounds 800 600", "xdg_toplevel.configure 0 0 [1, 4]", "xdg_surface.configure \(serial)",
                "xdg_toplevel.configure 123 45 []", "xdg_surface.configure \(serial2)", "xdg_toplevel.close",
            ])
            xdg_surface_ack_configure(mapped.xdgSurface, serial2)
            wl_display_flush(mapped.client.display)
            try await compositor.waitForAck(of: serial2, on: mapped.id)
            let surface = try compositor.surface(mapped.id)
            #expect(surface.acks.last == serial2 && surface.hasAckedLastConfigure)
            #expect(surface.toplevel?.closesSent == 1)
        }
    }

    @Test("a buffer committed before the first configure is a protocol error the test can see")
    func bufferBeforeConfigure() async throws {
        try await withTestCompositor(allowProtocolErrors: true) { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            let wlCompositor = try client.bind("wl_compositor", wlslider_wl_compositor_interface())
            let shm = try client.bind("wl_shm", wlslider_wl_shm_interface())
            let wmBase = try client.bind("xdg_wm_base", wlslider_xdg_wm_base_interface())
            let surface = client.createSurface(wlCompositor)
            _ = client.makeToplevel(wmBase, surface)
            let buffer = try client.makeBuffer(shm, width: 10, height: 10)
            client.show(buffer, on: surface)
            #expect(!client.roundtripSucceeds)
            #expect(client.protocolError?.hasPrefix("xdg_surface@") == true)
            let errors = compositor.state.protocolErrors
            #expect(errors.count == 1)
            #expect(errors.first?.interface == "xdg_surface" && errors.first?.code == 3)
            #expect(errors.first?.message.contains("before the first configure") == true)
        }
    }

    @Test("a layer surface's state is recorded, and a zero width stretches between its anchors")
    func layerSurfaceRecorded() async throws {
        try await withTestCompositor { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            let wlCompositor = try client.bind("wl_compositor", wlslider_wl_compositor_interface())
            let shm = try client.bind("wl_shm", wlslider_wl_shm_interface())
            let shell = try client.bind("zwlr_layer_shell_v1", wlslider_zwlr_layer_shell_v1_interface())
            let surface = client.createSurface(wlCompositor)
            let layer = client.makeLayerSurface(shell, surface, layer: 3, namespace: "wlslider")
            zwlr_layer_surface_v1_set_size(layer, 0, 40)
            zwlr_layer_surface_v1_set_anchor(layer, 2 | 4 | 8)
            zwlr_layer_surface_v1_set_margin(layer, 0, 10, 5, 30)
            zwlr_layer_surface_v1_set_exclusive_zone(layer, 45)
            zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 2)
            wl_surface_commit(surface)
            try client.roundtrip()
            let serial = try #require(client.lastConfigureSerial)
            #expect(client.events.last == "zwlr_layer_surface_v1.configure \(serial) 760 40", "800 - 10 - 30 wide")
            zwlr_layer_surface_v1_ack_configure(layer, serial)
            let buffer = try client.makeBuffer(shm, width: 760, height: 40)
            client.show(buffer, on: surface)
            try client.roundtrip()
            let state = try #require(compositor.state.surfaces(withRole: .layer).first)
            let recorded = try #require(state.layer)
            #expect(recorded.namespace == "wlslider" && recorded.layer == .overlay)
            #expect(recorded.anchor == [.bottom, .left, .right] && recorded.exclusiveZone == 45)
            #expect(recorded.margin == Margin(top: 0, right: 10, bottom: 5, left: 30))
            #expect(recorded.keyboardInteractivity == .onDemand)
            #expect(state.lastBufferCommit?.buffer?.width == 760)
            try compositor.close(state.id)
            try client.roundtrip()
            #expect(client.events.last == "zwlr_layer_surface_v1.closed")
        }
    }

    @Test("attaching a buffer to a layer surface before its configure is recorded as a protocol error")
    func layerBufferBeforeConfigure() async throws {
        try await withTestCompositor(allowProtocolErrors: true) { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            let wlCompositor = try client.bind("wl_compositor", wlslider_wl_compositor_interface())
            let shm = try client.bind("wl_shm", wlslider_wl_shm_interface())
            let shell = try client.bind("zwlr_layer_shell_v1", wlslider_zwlr_layer_shell_v1_interface())
            let surface = client.createSurface(wlCompositor)
            let layer = client.makeLayerSurface(shell, surface)
            zwlr_layer_surface_v1_set_size(layer, 100, 20)
            let buffer = try client.makeBuffer(shm, width: 100, height: 20)
            client.show(buffer, on: surface)
            #expect(!client.roundtripSucceeds)
            let error = try #require(compositor.state.protocolErrors.first)
            #expect(error.interface == "zwlr_layer_surface_v1" && error.code == 0)
            #expect(error.message.contains("before the first configure"))
        }
    }

    @Test("a layer surface with a zero width but no left and right anchors is an invalid_size error")
    func layerInvalidSize() async throws {
        try await withTestCompositor(allowProtocolErrors: true) { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            let wlCompositor = try client.bind("wl_compositor", wlslider_wl_compositor_interface())
            let shell = try client.bind("zwlr_layer_shell_v1", wlslider_zwlr_layer_shell_v1_interface())
            let surface = client.createSurface(wlCompositor)
            let layer = client.makeLayerSurface(shell, surface)
            zwlr_layer_surface_v1_set_anchor(layer, 2)
            wl_surface_commit(surface)
            #expect(!client.roundtripSucceeds)
            #expect(compositor.state.protocolErrors.map(\.code) == [1])
        }
    }
}
