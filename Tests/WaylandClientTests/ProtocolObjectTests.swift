import Glibc
import Posix
import Testing
@testable import WaylandClient

/// Tests of the pure helpers on the protocol objects (no compositor needed).
@Suite struct ProtocolObjectTests {
    private let preferred = LogicalSize(width: 320, height: 48)

    @Test func toplevelHonoursTheConfiguredSize() {
        #expect(Toplevel.configuredSize(width: 800, height: 600, preferred: preferred) == LogicalSize(width: 800, height: 600))
    }

    @Test func toplevelZeroMeansClientChoosesPerAxis() {
        #expect(Toplevel.configuredSize(width: 0, height: 0, preferred: preferred) == preferred)
        #expect(Toplevel.configuredSize(width: 500, height: 0, preferred: preferred) == LogicalSize(width: 500, height: 48))
        #expect(Toplevel.configuredSize(width: -3, height: 90, preferred: preferred) == LogicalSize(width: 320, height: 90))
    }

    @Test func layerSurfaceAnchorsOneEdge() {
        #expect(LayerSurface.anchor(for: .top) == 1)
        #expect(LayerSurface.anchor(for: .bottom) == 2)
        #expect(LayerSurface.anchor(for: .left) == 4)
        #expect(LayerSurface.anchor(for: .right) == 8)
    }

    @Test func keyboardOnDemandNeedsLayerShell4() {
        #expect(LayerSurface.keyboardInteractivity(shellVersion: 4, onDemand: true) == 2)
        #expect(LayerSurface.keyboardInteractivity(shellVersion: 3, onDemand: true) == 0)
        #expect(LayerSurface.keyboardInteractivity(shellVersion: 4, onDemand: false) == 0)
    }

    @Test func layerSurfaceKeepsTheRequestedSizeWhereConfiguredZero() {
        let requested = LogicalSize(width: 48, height: 320)
        #expect(LayerSurface.configuredSize(width: 0, height: 0, requested: requested) == requested)
        #expect(LayerSurface.configuredSize(width: 48, height: 600, requested: requested) == LogicalSize(width: 48, height: 600))
    }

    @Test func cursorSizeFromTheEnvironmentValue() {
        #expect(CursorImages.baseSize(nil) == 24)
        #expect(CursorImages.baseSize("32") == 32)
        #expect(CursorImages.baseSize("huge") == 24)
        #expect(CursorImages.baseSize("0") == 24)
    }

    @Test func bufferLayoutRejectsWhatWlShmCannotDescribe() throws {
        let layout = try ShmPool.layout(PixelSize(width: 320, height: 48))
        #expect(layout.stride == 1280)
        #expect(layout.length == 61_440)
        #expect(throws: WaylandError.self) { try ShmPool.layout(PixelSize(width: 40_000, height: 40_000)) }
        #expect(throws: WaylandError.self) { try ShmPool.layout(PixelSize(width: 0, height: 10)) }
        do {
            _ = try ShmPool.layout(PixelSize(width: 40_000, height: 40_000))
        } catch {
            #expect(error.description == "wl_shm: a 40000x40000 buffer does not fit in a pool (at most 2 GiB, sides > 0)")
        }
    }

    @Test func keymapTextEndsAtTheFirstNul() {
        let withNul: [UInt8] = Array("xkb_keymap {};".utf8) + [0]
        withNul.withUnsafeBytes { #expect(XKBKeymap.textLength($0) == withNul.count - 1) }
        let without: [UInt8] = Array("xkb_keymap {};".utf8)
        without.withUnsafeBytes { #expect(XKBKeymap.textLength($0) == without.count) }
    }

    @Test func axisSourceCodesMapToTheProtocolEnum() {
        #expect(Pointer.axisSource(0) == .wheel)
        #expect(Pointer.axisSource(1) == .finger)
        #expect(Pointer.axisSource(2) == .continuous)
        #expect(Pointer.axisSource(3) == .wheelTilt)
        #expect(Pointer.axisSource(99) == .unknown)
    }
}

@Suite struct ConnectionErrorTests {
    @Test func connectingToANonexistentSocketIsAOneLineError() {
        do {
            _ = try WaylandConnection(displayName: "/nonexistent-wlslider-dir/wayland-9")
            Issue.record("connected to a socket that does not exist")
        } catch {
            #expect(error.kind == .connectionFailed)
            #expect(error.description == "cannot connect to the Wayland compositor at /nonexistent-wlslider-dir/wayland-9: No such file or directory (errno 2)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func connectFailuresSayWhatWasWrongWithTheEnvironment() {
        func text(_ name: String?, _ code: Int32, socket: String? = nil, display: String? = "wayland-1", runtime: String? = "/run/user/1000") -> String {
            WaylandConnection.connectFailure(name, errno: Errno(code), socket: socket, display: display, runtimeDirectory: runtime).description
        }
        // libwayland gives no errno for a WAYLAND_SOCKET that is not a number.
        #expect(text(nil, 0, socket: "abc") == "cannot use the Wayland connection WAYLAND_SOCKET=abc: not a descriptor number")
        #expect(text(nil, 0, socket: "-3") == "cannot use the Wayland connection WAYLAND_SOCKET=-3: not a descriptor number")
        #expect(text(nil, EBADF, socket: "999") == "cannot use the Wayland connection WAYLAND_SOCKET=999: Bad file descriptor (errno 9)")
        #expect(text(nil, 0, socket: "7") == "cannot use the Wayland connection WAYLAND_SOCKET=7: no reason given")
        // WAYLAND_SOCKET wins over a name, as in libwayland.
        #expect(text("wayland-5", 0, socket: "abc") == "cannot use the Wayland connection WAYLAND_SOCKET=abc: not a descriptor number")
        #expect(text("wayland-5", ENOENT) == "cannot connect to the Wayland compositor at wayland-5: No such file or directory (errno 2)")
        #expect(text(nil, ENOENT, runtime: nil) == "cannot connect to the Wayland compositor at wayland-1: XDG_RUNTIME_DIR is not set")
        #expect(text(nil, ENOENT, display: "/tmp/w", runtime: nil) == "cannot connect to the Wayland compositor at /tmp/w: No such file or directory (errno 2)")
        #expect(text(nil, ENOENT, display: nil) == "cannot connect to the Wayland compositor at wayland-0: No such file or directory (errno 2)")
    }

    /// libwayland's choice of connection, in one place for the messages: WAYLAND_SOCKET first,
    /// whatever the name; then the name, WAYLAND_DISPLAY, wayland-0.
    @Test func theConnectionLibwaylandMakesIsChosenAsItChooses() {
        #expect(DisplayTarget(name: "wayland-5", socket: "7", display: "wayland-1") == .inheritedSocket("7"))
        #expect(DisplayTarget(name: nil, socket: "abc", display: nil) == .inheritedSocket("abc"))
        #expect(DisplayTarget(name: "wayland-5", socket: nil, display: "wayland-1") == .socket("wayland-5"))
        #expect(DisplayTarget(name: nil, socket: nil, display: "/tmp/w") == .socket("/tmp/w"))
        #expect(DisplayTarget(name: nil, socket: nil, display: nil) == .socket("wayland-0"))
    }

    @Test func errorTextsAreSingleLines() {
        let system = WaylandError.systemCall("memfd_create", errno: Errno(EMFILE), while: "creating a buffer pool")
        #expect(system.description == "memfd_create failed while creating a buffer pool: Too many open files (errno 24)")
        #expect(WaylandError.missingGlobal("xdg_wm_base", needed: 1).description == "xdg_wm_base: need version 1, compositor offers none")
        #expect(WaylandError.versionTooOld("wl_compositor", needed: 4, offered: 3).description
                == "wl_compositor: need version 4, compositor offers 3")
    }
}
