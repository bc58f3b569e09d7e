// Output, integer and fractional scale, viewports, buffer scale rules and cursor shapes.
import CWaylandClient
import CWaylandProtocols
import Testing
import TestCompositor

@Suite("Test compositor: output and scale")
struct TestCompositorOutputTests {
    @Test("wl_output describes the configured mode and scale, and sends a new scale with done")
    func outputScale() async throws {
        var configuration = Configuration()
        configuration.output.width = 1024
        configuration.output.height = 768
        try await withTestCompositor(configuration) { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            _ = try client.bindOutput()
            try client.roundtrip()
            #expect(client.events == ["wl_output.mode 1024 768 60000", "wl_output.scale 1", "wl_output.name TEST-1", "wl_output.done"])
            let mark = client.events.count
            try compositor.setOutputScale(2)
            try client.roundtrip()
            #expect(client.events(since: mark) == ["wl_output.mode 1024 768 60000", "wl_output.scale 2", "wl_output.name TEST-1", "wl_output.done"])
            #expect(compositor.state.outputScale == 2)
        }
    }

    @Test("a surface enters the output with its first buffer, and the test can make it leave and enter")
    func surfaceEnterLeave() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor) { client, _ in _ = try client.bindOutput() }
            #expect(mapped.client.events.filter { $0 == "wl_surface.enter" }.count == 1)
            #expect(try compositor.surface(mapped.id).isOnOutput)
            try compositor.leaveOutput(mapped.id)
            try compositor.enterOutput(mapped.id)
            try mapped.client.roundtrip()
            #expect(Array(mapped.client.events.suffix(2)) == ["wl_surface.leave", "wl_surface.enter"])
        }
    }

    @Test("fractional scale: preferred_scale on creation, then whenever the test sends one")
    func fractionalScale() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor)
            let manager = try mapped.client.bind("wp_fractional_scale_manager_v1", wlslider_wp_fractional_scale_manager_v1_interface())
            _ = mapped.client.getFractionalScale(manager, mapped.surface)
            try mapped.client.roundtrip()
            #expect(mapped.client.events.last == "wp_fractional_scale_v1.preferred_scale 120")
            try compositor.sendPreferredScale(mapped.id, scale120: 180)
            try mapped.client.roundtrip()
            #expect(mapped.client.events.last == "wp_fractional_scale_v1.preferred_scale 180")
            let surface = try compositor.surface(mapped.id)
            #expect(surface.hasFractionalScale && surface.preferredScaleSent == 180)
        }
    }

    @Test("viewport source and destination, buffer scale and damage are recorded per commit")
    func viewportAndScaleRecorded() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor)
            let viewporter = try mapped.client.bind("wp_viewporter", wlslider_wp_viewporter_interface())
            let viewport = wp_viewporter_get_viewport(viewporter, mapped.surface)!
            wp_viewport_set_destination(viewport, 43, 32)
            let big = try mapped.client.makeBuffer(mapped.shm, width: 96, height: 72)
            wl_surface_set_buffer_scale(mapped.surface, 2)
            wl_surface_attach(mapped.surface, big.buffer, 0, 0)
            wl_surface_damage_buffer(mapped.surface, 1, 2, 3, 4)
            wl_surface_damage(mapped.surface, 5, 6, 7, 8)
            wl_surface_commit(mapped.surface)
            try mapped.client.roundtrip()
            let commit = try #require(compositor.surface(mapped.id).lastCommit)
            #expect(commit.bufferScale == 2)
            #expect(commit.viewportDestination == Size(width: 43, height: 32))
            #expect(commit.surfaceSize == Size(width: 43, height: 32))
            #expect(commit.bufferDamage == [Rect(x: 1, y: 2, width: 3, height: 4)])
            #expect(commit.surfaceDamage == [Rect(x: 5, y: 6, width: 7, height: 8)])
            #expect(commit.buffer?.width == 96)
            wp_viewport_set_destination(viewport, -1, -1)
            wl_surface_commit(mapped.surface)
            try mapped.client.roundtrip()
            let next = try #require(compositor.surface(mapped.id).lastCommit)
            #expect(next.viewportDestination == nil && next.attachment == .unchanged)
        }
    }

    @Test("an input region is recorded as the client built it")
    func inputRegion() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor)
            let region = wl_compositor_create_region(mapped.compositor)!
            wl_region_add(region, 0, 0, 40, 48)
            wl_region_subtract(region, 0, 0, 10, 10)
            wl_surface_set_input_region(mapped.surface, region)
            wl_region_destroy(region)
            wl_surface_commit(mapped.surface)
            try mapped.client.roundtrip()
            let input = try #require(compositor.surface(mapped.id).lastCommit?.inputRegion)
            #expect(input.addedRects == [Rect(x: 0, y: 0, width: 40, height: 48)] && input.hasSubtractions)
            #expect(input.contains(x: 20, y: 20) && !input.contains(x: 5, y: 5) && !input.contains(x: 50, y: 20))
            wl_surface_set_input_region(mapped.surface, nil)
            wl_surface_commit(mapped.surface)
            try mapped.client.roundtrip()
            #expect(try compositor.surface(mapped.id).lastCommit?.inputRegion == nil, "nil: the whole surface")
        }
    }

    @Test("a buffer whose size is not a multiple of the buffer scale is an invalid_size error")
    func bufferScaleMismatch() async throws {
        try await withTestCompositor(allowProtocolErrors: true) { compositor in
            let mapped = try MappedToplevel(compositor, width: 63, height: 48)
            wl_surface_set_buffer_scale(mapped.surface, 2)
            wl_surface_commit(mapped.surface)
            #expect(!mapped.client.roundtripSucceeds)
            let error = try #require(compositor.state.protocolErrors.first)
            #expect(error.interface == "wl_surface" && error.code == 2 && error.message.contains("63×48"))
        }
    }

    @Test("cursor shapes a client sets are recorded by name")
    func cursorShape() async throws {
        try await withTestCompositor { compositor in
            let mapped = try MappedToplevel(compositor)
            let seat = try mapped.client.bindSeat()
            let pointer = mapped.client.getPointer(seat)
            let manager = try mapped.client.bind("wp_cursor_shape_manager_v1", wlslider_wp_cursor_shape_manager_v1_interface())
            let device = wp_cursor_shape_manager_v1_get_pointer(manager, pointer)!
            try mapped.client.roundtrip()
            let serial = try compositor.pointer.enter(mapped.id, x: 3, y: 3)
            wp_cursor_shape_device_v1_set_shape(device, serial, 17)
            wl_pointer_set_cursor(pointer, serial, nil, 0, 0)
            try mapped.client.roundtrip()
            let state = compositor.state
            #expect(state.cursorShapes.map(\.name) == ["grabbing"])
            #expect(state.cursorShapes.first?.serial == serial)
            #expect(state.cursorSurfaces.first?.surface == nil && state.cursorSurfaces.first?.serial == serial)
        }
    }
}
