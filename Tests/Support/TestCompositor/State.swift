// Everything the test compositor observed, as plain values: a test reads a copy, never a live
// object, so what it asserts on cannot change under it.

/// Everything the test compositor has observed so far.
public struct CompositorState: Sendable {
    /// The virtual clock in milliseconds: the `time` of input events and frame callbacks.
    public internal(set) var time: UInt32 = 1000
    /// Every client that ever connected (disconnected ones stay, marked).
    public internal(set) var clients: [ClientID: ClientState] = [:]
    /// Every surface ever created (destroyed ones stay, marked).
    public internal(set) var surfaces: [SurfaceID: SurfaceState] = [:]
    /// Every buffer ever attached (destroyed ones stay, marked).
    public internal(set) var buffers: [BufferID: BufferState] = [:]
    /// Every process launched with ``TestCompositor/launch(_:arguments:environment:)``.
    public internal(set) var processes: [ProcessID: ProcessState] = [:]
    /// Every protocol error posted to any client, oldest first.
    public internal(set) var protocolErrors: [ProtocolError] = []
    /// Every change found in a buffer while the compositor held it.
    public internal(set) var heldBufferWrites: [HeldBufferWrite] = []
    /// Every `wp_cursor_shape_device_v1.set_shape`, oldest first.
    public internal(set) var cursorShapes: [CursorShapeRequest] = []
    /// Every `wl_pointer.set_cursor`, oldest first.
    public internal(set) var cursorSurfaces: [CursorSurfaceRequest] = []
    /// The seat's devices now.
    public internal(set) var seatCapabilities: SeatCapabilities = []
    /// The `wl_output.scale` now.
    public internal(set) var outputScale: Int32 = 1
    /// The globals advertised now, with their versions.
    public internal(set) var globals: [Global: UInt32] = [:]
    /// The last few hundred requests and events, formatted like `WAYLAND_DEBUG` output.
    public internal(set) var protocolLog: [String] = []

    /// Surfaces in order of creation.
    public var surfaceList: [SurfaceState] { surfaces.values.sorted { $0.id < $1.id } }
    /// Live surfaces with the given role, in order of creation.
    public func surfaces(withRole role: SurfaceRole) -> [SurfaceState] {
        surfaceList.filter { $0.role == role && !$0.isDestroyed }
    }
    /// Protocol errors posted to one client.
    public func protocolErrors(of client: ClientID) -> [ProtocolError] {
        protocolErrors.filter { $0.client == client }
    }
}

/// One client connection.
public struct ClientState: Sendable {
    /// The compositor's number for the connection.
    public let id: ClientID
    /// The client's process id, from the socket's credentials.
    public let pid: Int32
    /// False once the connection closed (client exit, protocol error, or ``TestCompositor/disconnect(_:)``).
    public internal(set) var isConnected = true
    /// Requests received in all.
    public internal(set) var requestCount = 0
    /// Requests received, by `interface.request` name (e.g. `"wl_surface.frame"`).
    public internal(set) var requestsByName: [String: Int] = [:]
    /// Globals bound, by interface name, with the version of each bind.
    public internal(set) var boundGlobals: [String: [UInt32]] = [:]
    /// `xdg_wm_base.pong` serials received.
    public internal(set) var pongs: [UInt32] = []

    /// The version the client bound `global` at most recently, nil when it did not bind it.
    public func boundVersion(_ global: Global) -> UInt32? { boundGlobals[global.interfaceName]?.last }
    /// Requests received with that `interface.request` name.
    public func requests(_ name: String) -> Int { requestsByName[name] ?? 0 }
}

/// One `wl_buffer` a client attached.
public struct BufferState: Sendable {
    /// The buffer and its client.
    public let id: BufferID
    public let client: ClientID
    /// Size in pixels, stride in bytes, and format, as the client created it.
    public let width: Int32
    public let height: Int32
    public let stride: Int32
    public let format: ShmFormat
    /// Whether the compositor holds it (committed and not yet released).
    public internal(set) var isHeld = false
    /// How many commits attached it.
    public internal(set) var commitCount = 0
    /// How many `wl_buffer.release` events were sent.
    public internal(set) var releaseCount = 0
    /// The checksum of its bytes at its last commit.
    public internal(set) var checksumAtLastCommit: UInt64?
    /// Whether the client destroyed it.
    public internal(set) var isDestroyed = false
}

/// A protocol error the compositor (or libwayland on its behalf) posted to a client.
public struct ProtocolError: Hashable, Sendable, CustomStringConvertible {
    /// The client the error was sent to (it is then disconnected).
    public let client: ClientID
    /// The interface of the object the error is about, e.g. `"xdg_surface"`.
    public let interface: String
    /// The object's protocol id, the error code (in that interface's `error` enum) and the message.
    public let objectID: UInt32
    public let code: UInt32
    public let message: String
    public var description: String { "\(client): \(interface)@\(objectID) error \(code): \(message)" }
}

/// A buffer whose bytes changed while the compositor held it: the client wrote into memory the
/// compositor may have been reading.
public struct HeldBufferWrite: Hashable, Sendable, CustomStringConvertible {
    /// The buffer and its client.
    public let buffer: BufferID
    public let client: ClientID
    /// FNV-1a checksums of the buffer's bytes when committed and when the change was noticed.
    public let checksumAtCommit: UInt64
    public let checksumFound: UInt64
    /// When it was noticed, e.g. "at commit 7 of surface 1" or "when the test released it".
    public let noticed: String
    public var description: String {
        "\(buffer) of \(client) changed while held (checksum \(checksumAtCommit) at commit, \(checksumFound) \(noticed))"
    }
}

/// One `wp_cursor_shape_device_v1.set_shape`.
public struct CursorShapeRequest: Hashable, Sendable {
    /// The client and the serial it passed (that of a `wl_pointer.enter`).
    public let client: ClientID
    public let serial: UInt32
    /// The shape number (`wp_cursor_shape_device_v1.shape`).
    public let shape: UInt32
    /// Its protocol name, e.g. `"default"`, `"pointer"`, `"grabbing"`.
    public let name: String
}

/// One `wl_pointer.set_cursor`.
public struct CursorSurfaceRequest: Hashable, Sendable {
    /// The client and the serial it passed (that of a `wl_pointer.enter`).
    public let client: ClientID
    public let serial: UInt32
    /// The cursor surface, nil to hide the cursor.
    public let surface: SurfaceID?
    /// The hotspot in surface-local coordinates.
    public let hotspotX: Int32, hotspotY: Int32
}

/// How a child process ended.
public enum ExitStatus: Hashable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}

/// A child process the compositor started.
public struct ProcessState: Sendable {
    /// The compositor's number for it, and the operating system's process id.
    public let id: ProcessID
    public let pid: Int32
    /// The executable and its arguments.
    public let command: [String]
    /// Everything it wrote to standard output so far.
    public internal(set) var standardOutputBytes: [UInt8] = []
    /// Everything it wrote to standard error so far.
    public internal(set) var standardErrorBytes: [UInt8] = []
    /// How it ended; nil while it runs.
    public internal(set) var exitStatus: ExitStatus?

    /// Standard output and error so far, decoded as UTF-8.
    public var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }
    public var standardError: String { String(decoding: standardErrorBytes, as: UTF8.self) }
    /// Complete lines of standard output (a trailing line without newline is left out).
    public var standardOutputLines: [String] { Self.completeLines(standardOutputBytes) }

    static func completeLines(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        lines.removeLast()  // after the last newline: empty or an unfinished line
        return lines
    }
}
