// The injector's connection to the compositor: the display, its globals and the outputs (whose
// layout gives the virtual pointer its coordinate extent). All libwayland-client calls that are not
// about one input protocol live here.
internal import CWaylandClient
import Glibc

/// A failure that ends the injector with exit status 1 and this one-line message.
struct InjectorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A global the compositor advertised.
struct Global {
    let name: UInt32
    let interface: String
    let version: UInt32
}

/// One `wl_output`: its position in the layout, its current mode and its integer scale.
final class OutputInfo {
    var x: Int32 = 0, y: Int32 = 0
    var modeWidth: Int32 = 0, modeHeight: Int32 = 0
    var scale: Int32 = 1

    /// The output's logical extent's far corner in the layout.
    var logicalFarCorner: (x: Double, y: Double) {
        let s = Double(max(scale, 1))
        return (Double(x) + Double(modeWidth) / s, Double(y) + Double(modeHeight) / s)
    }
}

/// The connection, the registry and the outputs.
final class Display {
    let pointer: OpaquePointer
    private(set) var registry: OpaquePointer?
    private(set) var globals: [Global] = []
    private(set) var outputs: [OutputInfo] = []
    private var outputProxies: [OpaquePointer] = []

    /// Connects to `WAYLAND_DISPLAY` (or `WAYLAND_SOCKET`) and learns the globals and outputs.
    init() throws(InjectorError) {
        guard let display = wl_display_connect(nil) else {
            let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
            throw InjectorError("cannot connect to the compositor '\(name)': \(String(cString: strerror(errno)))")
        }
        pointer = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, InjectorListeners.registry, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
        for global in globals where global.interface == "wl_output" { bindOutput(global) }
        try roundtrip()
    }

    deinit {
        for proxy in outputProxies { wl_proxy_destroy(proxy) }
        if let registry { wl_registry_destroy(registry) }
        wl_display_disconnect(pointer)
    }

    func global(name: UInt32, interface: String, version: UInt32) {
        globals.append(Global(name: name, interface: interface, version: version))
    }

    /// The first global with this interface, or nil.
    func find(_ interface: String) -> Global? { globals.first { $0.interface == interface } }

    /// Binds `global` at `min(advertised, supported)` and returns the proxy.
    func bind(_ global: Global, interface: UnsafePointer<wl_interface>, supported: UInt32) -> OpaquePointer {
        let version = min(global.version, supported)
        return OpaquePointer(wl_registry_bind(registry, global.name, interface, version))
    }

    private func bindOutput(_ global: Global) {
        let proxy = bind(global, interface: wlslider_wl_output_interface(), supported: 2)
        let info = OutputInfo()
        outputs.append(info)
        outputProxies.append(proxy)
        wl_output_add_listener(proxy, InjectorListeners.output, Unmanaged.passUnretained(info).toOpaque())
    }

    /// The logical size of the output layout, from its origin to the far corner of every output.
    var layoutExtent: (width: Double, height: Double)? {
        let corners = outputs.map(\.logicalFarCorner).filter { $0.x > 0 && $0.y > 0 }
        guard !corners.isEmpty else { return nil }
        return (corners.map(\.x).max()!, corners.map(\.y).max()!)
    }

    /// Waits until the compositor has handled everything sent so far.
    func roundtrip() throws(InjectorError) {
        if wl_display_roundtrip(pointer) < 0 { throw connectionLost() }
    }

    /// Sends what is queued; a full socket is retried by the caller's next flush.
    func flush() throws(InjectorError) {
        if wl_display_flush(pointer) < 0 && errno != EAGAIN { throw connectionLost() }
    }

    /// The file descriptor to poll for events.
    var fd: Int32 { wl_display_get_fd(pointer) }

    /// Reads and dispatches the events that are waiting (call when `fd` is readable).
    func dispatch() throws(InjectorError) {
        if wl_display_dispatch(pointer) < 0 { throw connectionLost() }
    }

    private func connectionLost() -> InjectorError {
        let code = wl_display_get_error(pointer)
        return InjectorError("lost the connection to the compositor: \(String(cString: strerror(code != 0 ? code : errno)))")
    }
}

/// The listener tables, on the heap for the whole process (libwayland keeps their address).
enum InjectorListeners {
    private static func permanent<T>(_ table: T) -> UnsafePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return UnsafePointer(pointer)
    }

    private static func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, _: T.Type) -> T {
        Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) static let registry = permanent(wl_registry_listener(
        global: { data, _, name, interface, version in
            owner(data, Display.self).global(name: name, interface: interface.map { String(cString: $0) } ?? "", version: version)
        },
        global_remove: { _, _, _ in }
    ))

    nonisolated(unsafe) static let output = permanent(wl_output_listener(
        geometry: { data, _, x, y, _, _, _, _, _, _ in
            let info = owner(data, OutputInfo.self)
            info.x = x
            info.y = y
        },
        mode: { data, _, flags, width, height, _ in
            guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
            let info = owner(data, OutputInfo.self)
            info.modeWidth = width
            info.modeHeight = height
        },
        done: { _, _ in },
        scale: { data, _, factor in owner(data, OutputInfo.self).scale = factor },
        name: { _, _, _ in },
        description: { _, _, _ in }
    ))
}
