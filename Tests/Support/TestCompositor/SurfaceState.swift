// What the compositor recorded about one wl_surface: its role, every configure and ack, and every
// commit with the pixels it showed.

/// The role a surface was given.
public enum SurfaceRole: Hashable, Sendable {
    case none
    /// `xdg_surface` + `xdg_toplevel`.
    case toplevel
    /// `xdg_surface` + `xdg_popup` (accepted, and dismissed at once: the test compositor shows no popups).
    case popup
    /// `zwlr_layer_surface_v1`.
    case layer
    /// Set as a pointer cursor with `wl_pointer.set_cursor`.
    case cursor
}

/// An `xdg_toplevel.state` value.
public enum ToplevelStateFlag: UInt32, Hashable, Sendable {
    case maximized = 1, fullscreen, resizing, activated
    case tiledLeft, tiledRight, tiledTop, tiledBottom
}

/// One configure sequence the compositor sent (`xdg_toplevel.configure` + `xdg_surface.configure`,
/// or `zwlr_layer_surface_v1.configure`).
public struct ConfigureEvent: Hashable, Sendable {
    /// The serial the client must acknowledge.
    public let serial: UInt32
    /// The size sent; 0 means "the client chooses".
    public let size: Size
    /// The toplevel states sent (empty for layer surfaces).
    public let states: [ToplevelStateFlag]
}

/// What an `xdg_toplevel` asked for.
public struct ToplevelState: Hashable, Sendable {
    /// `set_title`, as last sent.
    public internal(set) var title: String?
    /// `set_app_id`, as last sent.
    public internal(set) var appID: String?
    /// `set_min_size` (0 = no limit).
    public internal(set) var minSize = Size(width: 0, height: 0)
    /// `set_max_size` (0 = no limit).
    public internal(set) var maxSize = Size(width: 0, height: 0)
    /// From `xdg_surface.set_window_geometry`, as last committed.
    public internal(set) var windowGeometry: Rect?
    /// Names of the other requests it sent, in order (`set_maximized`, `move`, `set_parent`, ...).
    public internal(set) var otherRequests: [String] = []
    /// How many `xdg_toplevel.close` events the test sent.
    public internal(set) var closesSent = 0
    /// Whether the client made a `zxdg_toplevel_decoration_v1` for it.
    public internal(set) var hasDecorationObject = false
    /// The decoration modes it asked for, in order (`unset_mode` is nil).
    public internal(set) var requestedDecorationModes: [DecorationMode?] = []
}

/// `zxdg_toplevel_decoration_v1.mode`.
public enum DecorationMode: UInt32, Hashable, Sendable {
    case clientSide = 1, serverSide = 2
}

/// A `zwlr_layer_shell_v1.layer`.
public enum Layer: UInt32, Hashable, Sendable {
    case background = 0, bottom, top, overlay
}

/// `zwlr_layer_surface_v1.keyboard_interactivity`.
public enum KeyboardInteractivity: UInt32, Hashable, Sendable {
    case none = 0, exclusive, onDemand
}

/// `zwlr_layer_surface_v1.anchor`: the output edges a layer surface is anchored to.
public struct LayerAnchor: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let top = LayerAnchor(rawValue: 1)
    public static let bottom = LayerAnchor(rawValue: 2)
    public static let left = LayerAnchor(rawValue: 4)
    public static let right = LayerAnchor(rawValue: 8)
}

/// Margins of a layer surface from its anchored edges.
public struct Margin: Hashable, Sendable {
    /// Distances in surface-local coordinates.
    public var top: Int32, right: Int32, bottom: Int32, left: Int32
    public init(top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0, left: Int32 = 0) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }
}

/// A layer surface's double-buffered state, as of its last commit.
public struct LayerSurfaceState: Hashable, Sendable {
    /// The namespace given to `get_layer_surface`.
    public let namespace: String
    /// `get_layer_surface` layer, or the last `set_layer`.
    public internal(set) var layer: Layer
    /// `set_size` (0 on a side: stretch between the anchors).
    public internal(set) var size = Size(width: 0, height: 0)
    /// `set_anchor`.
    public internal(set) var anchor: LayerAnchor = []
    /// `set_exclusive_zone`.
    public internal(set) var exclusiveZone: Int32 = 0
    /// `set_margin`.
    public internal(set) var margin = Margin()
    /// `set_keyboard_interactivity`.
    public internal(set) var keyboardInteractivity: KeyboardInteractivity = .none
    /// How many `closed` events the test sent.
    public internal(set) var closesSent = 0
}

/// `wp_viewport.set_source`: a rectangle of the buffer in surface-scale units.
public struct ViewportSource: Hashable, Sendable {
    /// The rectangle, in surface-scale buffer units.
    public let x: Double, y: Double, width: Double, height: Double
}

/// A surface offset in surface-local coordinates (`wl_surface.offset`, or attach dx/dy).
public struct Offset: Hashable, Sendable {
    /// The offset in surface-local coordinates.
    public var x: Int32, y: Int32
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A snapshot of the buffer a commit attached.
public struct BufferSnapshot: Hashable, Sendable {
    /// Which `wl_buffer` it was.
    public let buffer: BufferID
    /// Width and height in buffer pixels.
    public let width: Int32
    public let height: Int32
    /// The client's stride in bytes (the copy in ``image`` has no padding).
    public let stride: Int32
    /// The `wl_shm` format the client declared.
    public let format: ShmFormat
    /// The pixels at commit time; nil for formats the compositor does not copy.
    public let image: Image?
    /// FNV-1a checksum of the buffer's bytes (`height * stride`) at commit time.
    public let checksum: UInt64
}

/// What a `wl_surface.attach` before a commit did.
public enum Attachment: Hashable, Sendable {
    /// No attach in this commit: the surface keeps its buffer.
    case unchanged
    /// A buffer was attached (its pixels were copied at commit time).
    case buffer(BufferSnapshot)
    /// A null buffer was attached: the surface is unmapped.
    case removed
}

/// One `wl_surface.commit` and the state it applied.
public struct Commit: Hashable, Sendable {
    /// 1 for the surface's first commit, then 2, 3, ...
    public let sequence: Int
    /// The virtual clock at commit time (milliseconds).
    public let time: UInt32
    /// What the commit did with the buffer.
    public let attachment: Attachment
    /// `wl_surface.set_buffer_scale` in effect after this commit.
    public let bufferScale: Int32
    /// `wl_surface.set_buffer_transform` in effect after this commit (`wl_output.transform`).
    public let bufferTransform: Int32
    /// `wl_surface.offset` (or attach dx/dy on version < 5) sent with this commit.
    public let offset: Offset
    /// `wp_viewport.set_source` in effect, nil when unset.
    public let viewportSource: ViewportSource?
    /// `wp_viewport.set_destination` in effect, nil when unset.
    public let viewportDestination: Size?
    /// `wl_surface.damage` rectangles sent with this commit (surface coordinates).
    public let surfaceDamage: [Rect]
    /// `wl_surface.damage_buffer` rectangles sent with this commit (buffer coordinates).
    public let bufferDamage: [Rect]
    /// The input region in effect; nil means the whole surface (the protocol's infinite region).
    public let inputRegion: Region?
    /// The opaque region in effect; nil when unset.
    public let opaqueRegion: Region?
    /// How many `wl_surface.frame` callbacks this commit carried.
    public let frameCallbacks: Int
    /// The last configure serial the client had acknowledged when it committed.
    public let ackedSerial: UInt32?

    /// The snapshot of the buffer attached by this commit, nil when none was attached.
    public var buffer: BufferSnapshot? {
        if case .buffer(let b) = attachment { b } else { nil }
    }
    /// The surface size this commit implies: the viewport destination, else buffer size / scale.
    public var surfaceSize: Size? {
        if let viewportDestination { return viewportDestination }
        guard let b = buffer, bufferScale > 0 else { return nil }
        return Size(width: b.width / bufferScale, height: b.height / bufferScale)
    }
}

/// Everything recorded about one `wl_surface`.
public struct SurfaceState: Sendable {
    /// The surface and the client that owns it.
    public let id: SurfaceID
    public let client: ClientID
    /// The `wl_surface` version the client has (that of its `wl_compositor`).
    public let version: UInt32
    /// The role given, ``SurfaceRole/none`` until the client gives one.
    public internal(set) var role: SurfaceRole = .none
    /// The toplevel's requests, when the role is ``SurfaceRole/toplevel``.
    public internal(set) var toplevel: ToplevelState?
    /// The layer surface's state as of its last commit, when the role is ``SurfaceRole/layer``.
    public internal(set) var layer: LayerSurfaceState?
    /// Every configure sent, oldest first.
    public internal(set) var configures: [ConfigureEvent] = []
    /// Every serial the client acknowledged with `ack_configure`, oldest first.
    public internal(set) var acks: [UInt32] = []
    /// The most recent commits, oldest first (at most ``Configuration/commitHistoryLimit``).
    public internal(set) var commits: [Commit] = []
    /// How many commits there were in all (commits beyond the history limit are counted, not kept).
    public internal(set) var commitCount = 0
    /// Whether a buffer is attached in the committed state (the surface is mapped).
    public internal(set) var hasBuffer = false
    /// The buffer in the committed state.
    public internal(set) var currentBuffer: BufferID?
    /// `wl_surface.frame` requests in all (committed or not).
    public internal(set) var frameCallbacksRequested = 0
    /// Committed frame callbacks still waiting for `done`.
    public internal(set) var frameCallbacksPending = 0
    /// Frame callbacks answered with `done`.
    public internal(set) var frameCallbacksDone = 0
    /// Whether the surface is on the output (`wl_surface.enter` sent, no `leave` since).
    public internal(set) var isOnOutput = false
    /// Whether the client created a `wp_viewport` for it (and has not destroyed it).
    public internal(set) var hasViewport = false
    /// Whether the client created a `wp_fractional_scale_v1` for it (and has not destroyed it).
    public internal(set) var hasFractionalScale = false
    /// The last `wp_fractional_scale_v1.preferred_scale` sent, in 120ths.
    public internal(set) var preferredScaleSent: UInt32?
    /// Whether the client destroyed the surface.
    public internal(set) var isDestroyed = false

    init(id: SurfaceID, client: ClientID, version: UInt32) {
        self.id = id
        self.client = client
        self.version = version
    }

    /// The last commit, if any.
    public var lastCommit: Commit? { commits.last }
    /// The last commit that attached a buffer.
    public var lastBufferCommit: Commit? { commits.last { $0.buffer != nil } }
    /// The pixels of the last attached buffer.
    public var lastImage: Image? { lastBufferCommit?.buffer?.image }
    /// The last configure sent.
    public var lastConfigure: ConfigureEvent? { configures.last }
    /// Whether the client acknowledged the last configure sent.
    public var hasAckedLastConfigure: Bool {
        guard let last = configures.last else { return false }
        return acks.contains(last.serial)
    }
}
