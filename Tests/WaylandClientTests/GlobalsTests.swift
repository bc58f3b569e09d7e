import Testing
@testable import WaylandClient

private func global(_ name: UInt32, _ interface: String, _ version: UInt32) -> AdvertisedGlobal {
    AdvertisedGlobal(name: name, interface: interface, version: version)
}

/// What weston 10 headless advertises (no layer-shell, no seat).
private let weston: [AdvertisedGlobal] = [
    global(1, "wl_compositor", 5), global(2, "wl_subcompositor", 1), global(3, "wp_viewporter", 1),
    global(4, "wl_shm", 1), global(5, "xdg_wm_base", 3), global(6, "wl_output", 4),
]

@Suite struct GlobalsTests {
    @Test func bindsMinOfAdvertisedAndSupported() throws {
        let plan = try planBindings(weston + [global(7, "wl_seat", 9), global(8, "zwlr_layer_shell_v1", 4)])
        #expect(plan.singletons["wl_compositor"] == GlobalBinding(name: 1, version: 5))
        #expect(plan.singletons["xdg_wm_base"] == GlobalBinding(name: 5, version: 3))
        #expect(plan.singletons["wl_shm"] == GlobalBinding(name: 4, version: 1))
        #expect(plan.singletons["wp_viewporter"] == GlobalBinding(name: 3, version: 1))
        #expect(plan.singletons["zwlr_layer_shell_v1"] == GlobalBinding(name: 8, version: 4))
        #expect(plan.singletons["wl_subcompositor"] == nil)
        // A seat newer than Debian 12's headers is bound at the version whose events we know.
        #expect(plan.seats == [GlobalBinding(name: 7, version: 8)])
        #expect(plan.outputs == [GlobalBinding(name: 6, version: 4)])
    }

    @Test func newerCompositorsAreCappedAtWhatWeHandle() throws {
        let plan = try planBindings([global(1, "wl_compositor", 6), global(2, "wl_shm", 2), global(3, "xdg_wm_base", 6)])
        #expect(plan.singletons["wl_compositor"]?.version == 5)
        #expect(plan.singletons["wl_shm"]?.version == 1)
        #expect(plan.singletons["xdg_wm_base"]?.version == 5)
    }

    @Test func missingRequiredGlobalIsAOneLineError() {
        let withoutWmBase = weston.filter { $0.interface != "xdg_wm_base" }
        #expect(throws: WaylandError(.missingGlobal, "xdg_wm_base: need version 1, compositor offers none")) {
            try planBindings(withoutWmBase)
        }
        #expect(throws: WaylandError(.missingGlobal, "wl_shm: need version 1, compositor offers none")) {
            try planBindings(weston.filter { $0.interface != "wl_shm" })
        }
    }

    @Test func tooOldCompositorNamesBothVersions() {
        let old = weston.map { $0.interface == "wl_compositor" ? global($0.name, "wl_compositor", 3) : $0 }
        #expect(throws: WaylandError(.versionTooOld, "wl_compositor: need version 4, compositor offers 3")) {
            try planBindings(old)
        }
    }

    @Test func requiredErrorsAreReportedInAFixedOrder() {
        #expect(throws: WaylandError(.missingGlobal, "wl_compositor: need version 4, compositor offers none")) {
            try planBindings([])
        }
    }

    @Test func optionalGlobalsAreSkippedWhenAbsentOrTooOld() throws {
        let tooOldSeat = GlobalSpec(interface: "x", minimum: 2, supported: 3, required: false)
        #expect(try tooOldSeat.negotiate(offered: 1) == nil)
        #expect(try tooOldSeat.negotiate(offered: nil) == nil)
        #expect(try tooOldSeat.negotiate(offered: 2) == 2)
        #expect(try tooOldSeat.negotiate(offered: 7) == 3)
    }

    @Test func severalSeatsAndOutputsAreAllBound() throws {
        let plan = try planBindings(weston + [global(10, "wl_output", 2), global(11, "wl_seat", 5), global(12, "wl_seat", 7)])
        #expect(plan.outputs.map(\.name) == [6, 10])
        #expect(plan.outputs.map(\.version) == [4, 2])
        #expect(plan.seats.map(\.version) == [5, 7])
    }

    @Test func firstOfADuplicatedSingletonWins() throws {
        let plan = try planBindings(weston + [global(20, "wl_compositor", 4)])
        #expect(plan.singletons["wl_compositor"] == GlobalBinding(name: 1, version: 5))
    }
}
