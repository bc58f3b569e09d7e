// Everything that crosses the wire passes through libwayland's protocol logger on its way: this
// file counts each client's requests (busy-loop checks), records every wl_display.error (protocol
// errors, including those libwayland posts itself), and keeps a WAYLAND_DEBUG-like transcript.
internal import CWaylandServer
import Glibc

private let transcriptLength = 400

extension Server {
    func observe(_ isRequest: Bool, _ message: wl_protocol_logger_message) {
        guard let client = clients[wl_resource_get_client(message.resource)] else { return }
        let interface = String(cString: wl_resource_get_class(message.resource))
        let name = String(cString: message.message.pointee.name)
        if isRequest {
            state.clients[client.id]?.requestCount += 1
            state.clients[client.id]?.requestsByName["\(interface).\(name)", default: 0] += 1
            if interface == "wl_registry" && name == "bind" { recordBind(client, message.resource, message.arguments) }
        } else if interface == "wl_display" && name == "error" {
            recordError(client.id, message.arguments)
        }
        let line = "\(client.id) \(isRequest ? "->" : "<-") \(interface)@\(wl_resource_get_id(message.resource)).\(name)(\(formatArguments(message)))"
        state.protocolLog.append(line)
        if state.protocolLog.count > transcriptLength { state.protocolLog.removeFirst(state.protocolLog.count - transcriptLength) }
        if logToStandardError { printToStandardError("[compositor \(instance)] \(line)") }
    }

    /// `wl_registry.bind(name, interface, version, id)`: seen here for every global, libwayland's
    /// own wl_shm included.
    private func recordBind(_ client: ClientObject, _ registry: OpaquePointer, _ args: UnsafePointer<wl_argument>) {
        guard let interface = args[1].s.map({ String(cString: $0) }) else { return }
        state.clients[client.id]?.boundGlobals[interface, default: []].append(args[2].u)
        client.bindings[interface] = (wl_resource_get_id(registry), args[0].u, args[2].u)
    }

    /// `wl_display.error(object, code, message)`: the object is a wl_resource (its wl_object is the
    /// resource's first member, so the pointers coincide).
    private func recordError(_ client: ClientID, _ args: UnsafePointer<wl_argument>) {
        let object = args[0].o
        let error = ProtocolError(
            client: client,
            interface: object.map { String(cString: wl_resource_get_class($0)) } ?? "?",
            objectID: object.map { wl_resource_get_id($0) } ?? 0,
            code: args[1].u,
            message: args[2].s.map { String(cString: $0) } ?? "")
        state.protocolErrors.append(error)
        if logToStandardError { printToStandardError("[compositor \(instance)] protocol error: \(error)") }
    }

    private func formatArguments(_ message: wl_protocol_logger_message) -> String {
        let signature = String(cString: message.message.pointee.signature).filter { !$0.isNumber && $0 != "?" }
        return zip(signature, 0..<Int(message.arguments_count)).map { type, i in
            let a = message.arguments[i]
            switch type {
            case "i": return "\(a.i)"
            case "u": return "\(a.u)"
            case "f": return "\(wl_fixed_to_double(a.f))"
            case "s": return a.s.map { "\"\(String(cString: $0))\"" } ?? "nil"
            case "o": return a.o.map { "\(String(cString: wl_resource_get_class($0)))@\(wl_resource_get_id($0))" } ?? "nil"
            case "n": return "new id \(a.n)"
            case "a": return "array[\(a.a?.pointee.size ?? 0)]"
            case "h": return "fd \(a.h)"
            default: return "?"
            }
        }.joined(separator: ", ")
    }
}

/// Writes one line to standard error (the `stderr` global is off limits in Swift 6).
func printToStandardError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// libwayland-server's own messages ("error in client communication", ...) go to standard error
/// only with TEST_COMPOSITOR_DEBUG=1: every protocol error they accompany is already recorded in
/// ``CompositorState/protocolErrors``. The handler is process-wide, so it is installed once.
let quietServerLog: Void = {
    guard getenv("TEST_COMPOSITOR_DEBUG").map({ String(cString: $0) }) != "1" else { return }
    wl_log_set_handler_server { _, _ in }
}()
