// Which way the window gets its title bar, decided without a compositor.
import Testing
@testable import WaylandClient

@Suite("Decoration route")
struct DecorationRouteTests {
    @Test("xdg-decoration offered: server-side, and libdecor is never loaded nor its limits read")
    func serverSide() {
        var loads = 0, limitReads = 0
        func limit() -> Int? { limitReads += 1; return nil }
        let route = DecorationRoute.choose(decorationManager: true, subcompositor: true, descriptorLimit: limit(),
                                           addressSpaceLimit: limit()) { loads += 1; return nil }
        #expect(route == .serverSide && loads == 0 && limitReads == 0)
        let bare = DecorationRoute.choose(decorationManager: false, subcompositor: true, library: DecorationRoute.disabled,
                                          descriptorLimit: limit(), addressSpaceLimit: limit()) { loads += 1; return nil }
        #expect(bare == .undecorated(notice: nil) && loads == 0 && limitReads == 0)
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: limit(),
                                       addressSpaceLimit: limit()) { nil } == .libdecor)
        #expect(limitReads == 2)
    }

    @Test("not offered: libdecor when it loads and subsurfaces exist")
    func libdecor() {
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: 1024, addressSpaceLimit: nil) { nil } == .libdecor)
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: nil, addressSpaceLimit: nil) { nil } == .libdecor)
    }

    @Test("not offered, and few open files allowed: undecorated without loading libdecor, which crashes when it runs out")
    func fewDescriptors() {
        var loads = 0
        let route = DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: 12) { loads += 1; return nil }
        guard case .undecorated(let notice?) = route else { Issue.record("\(route)"); return }
        #expect(loads == 0)
        #expect(notice.contains("12 open files") && notice.contains("ulimit -n") && notice.contains("no title bar") && !notice.contains("\n"))
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true,
                                       descriptorLimit: DecorationRoute.libdecorDescriptorMinimum) { nil } == .libdecor)
        #expect(DecorationRoute.choose(decorationManager: true, subcompositor: true, descriptorLimit: 12) { nil } == .serverSide)
    }

    @Test("not offered, and little address space allowed: undecorated without loading libdecor, whose fontconfig and pango crash without it")
    func littleAddressSpace() {
        var loads = 0
        let route = DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: nil,
                                           addressSpaceLimit: 60 << 20) { loads += 1; return nil }
        guard case .undecorated(let notice?) = route else { Issue.record("\(route)"); return }
        #expect(loads == 0)
        #expect(notice.contains("60 MiB of address space") && notice.contains("ulimit -v") && !notice.contains("\n"))
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: nil,
                                       addressSpaceLimit: DecorationRoute.libdecorAddressSpaceMinimumMiB << 20) { nil } == .libdecor)
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true, descriptorLimit: nil,
                                       addressSpaceLimit: nil) { nil } == .libdecor)
    }

    @Test("not offered and libdecor missing: undecorated, with the loader's reason and what to install")
    func missingLibdecor() throws {
        let route = DecorationRoute.choose(decorationManager: false, subcompositor: true) { "libdecor-0.so.0: cannot open shared object file" }
        guard case .undecorated(let notice?) = route else { Issue.record("\(route)"); return }
        #expect(notice.contains("zxdg_decoration_manager_v1") && notice.contains("cannot open shared object file")
                && notice.contains("libdecor-0-plugin-1-cairo") && !notice.contains("\n"))
    }

    @Test("WLSLIDER_LIBDECOR=none: undecorated without loading anything and without a notice; server-side still wins")
    func disabled() {
        var loads = 0
        let route = DecorationRoute.choose(decorationManager: false, subcompositor: true, library: "none") { loads += 1; return nil }
        #expect(route == .undecorated(notice: nil) && loads == 0)
        #expect(DecorationRoute.choose(decorationManager: true, subcompositor: true, library: "none") { nil } == .serverSide)
        // Only the exact word: a library named otherwise is loaded as asked.
        #expect(DecorationRoute.choose(decorationManager: false, subcompositor: true, library: "None") { nil } == .libdecor)
    }

    @Test("not offered and no wl_subcompositor: undecorated")
    func noSubcompositor() {
        let route = DecorationRoute.choose(decorationManager: false, subcompositor: false) { nil }
        guard case .undecorated(let notice?) = route else { Issue.record("\(route)"); return }
        #expect(notice.contains("wl_subcompositor"))
    }
}
