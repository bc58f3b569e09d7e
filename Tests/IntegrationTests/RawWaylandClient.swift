// A deliberately small Wayland client, in process, for the test compositor's self-tests: it does
// exactly what a test tells it (including wrong things) and writes every event it receives into
// a log, so a test can check what the compositor sent, event by event.
import CWaylandClient
import CWaylandProtocols
import Glibc

/// A raw libwayland-client connection driven step by step by a test.
final class RawWaylandClient {
    let display: OpaquePointer
    private(set) var registry: OpaquePointer!
    /// Globals advertised now: name → (interface, version).
    private(set) var globals: [UInt32: (interface: String, version: UInt32)] = [:]
    /// Every event received, formatted "interface.event args", oldest first.
    private(set) var events: [String] = []
    private var listeners: [UnsafeMutableRawPointer] = []
    var keymap: (format: UInt32, text: String)?
    var lastConfigureSerial: UInt32?

    init(socketPath: String) throws {
        // libwayland-client prints protocol errors itself; the tests read them from protocolError.
        wl_log_set_handler_client { _, _ in }
        guard let display = wl_display_connect(socketPath) else {
            throw RawClientError("wl_display_connect(\(socketPath)) failed: errno \(errno)")
        }
        self.display = display
        registry = wl_display_get_registry(display)
        listen(registry, wl_registry_listener(
            global: { data, _, name, interface, version in
                let client = RawWaylandClient.from(data)
                client.globals[name] = (String(cString: interface!), version)
            },
            global_remove: { data, _, name in
                let client = RawWaylandClient.from(data)
                client.log("wl_registry.global_remove \(client.globals[name]?.interface ?? "?")")
                client.globals[name] = nil
            }))
        try roundtrip()
    }

    deinit {
        wl_display_disconnect(display)
        listeners.forEach { $0.deallocate() }
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> RawWaylandClient {
        Unmanaged<RawWaylandClient>.fromOpaque(data!).takeUnretainedValue()
    }

    func log(_ event: String) { events.append(event) }

    /// Events logged since `index` (use `events.count` before an action as the mark).
    func events(since index: Int) -> [String] { Array(events[index...]) }

    /// Adds a listener struct that lives as long as the client.
    func listen<L>(_ proxy: OpaquePointer, _ listener: L) {
        let memory = UnsafeMutablePointer<L>.allocate(capacity: 1)
        memory.initialize(to: listener)
        listeners.append(UnsafeMutableRawPointer(memory))
        wl_proxy_add_listener(proxy, UnsafeMutableRawPointer(memory).assumingMemoryBound(to: (@convention(c) () -> Void)?.self),
                              Unmanaged.passUnretained(self).toOpaque())
    }

    /// Sends everything and waits until the compositor has processed it and answered.
    func roundtrip() throws {
        guard wl_display_roundtrip(display) >= 0 else { throw RawClientError("roundtrip failed: \(protocolError ?? "errno \(errno)")") }
    }

    /// Like ``roundtrip()`` but reports failure as a value (for tests expecting a protocol error).
    var roundtripSucceeds: Bool { wl_display_roundtrip(display) >= 0 }

    /// The protocol error the compositor sent, as "interface@id code", or nil.
    var protocolError: String? {
        guard wl_display_get_error(display) == EPROTO else { return nil }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        return "\(interface.map { String(cString: $0.pointee.name) } ?? "?")@\(id) \(code)"
    }

    /// Binds the advertised global with this interface name at `version` (or the advertised one).
    func bind(_ name: String, _ interface: UnsafePointer<wl_interface>, version: UInt32? = nil) throws -> OpaquePointer {
        guard let (global, advertised) = globals.first(where: { $0.value.interface == name }).map({ ($0.key, $0.value.version) }) else {
            throw RawClientError("\(name) is not advertised")
        }
        return OpaquePointer(wl_registry_bind(registry, global, interface, min(version ?? advertised, advertised)))!
    }

    func has(_ interface: String) -> Bool { globals.values.contains { $0.interface == interface } }
    func version(of interface: String) -> UInt32? { globals.values.first { $0.interface == interface }?.version }
}

struct RawClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
