// How a test compositor starts, and the switches a test can flip later.

/// A global the test compositor can advertise.
public enum Global: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case compositor = "wl_compositor"
    case shm = "wl_shm"
    case xdgWmBase = "xdg_wm_base"
    case layerShell = "zwlr_layer_shell_v1"
    case seat = "wl_seat"
    case output = "wl_output"
    case viewporter = "wp_viewporter"
    case fractionalScale = "wp_fractional_scale_manager_v1"
    case cursorShape = "wp_cursor_shape_manager_v1"
    case decorationManager = "zxdg_decoration_manager_v1"

    /// The interface name, as in the registry.
    public var interfaceName: String { rawValue }
    public var description: String { rawValue }

    /// The highest version the compositor implements (bounded by Debian 12's headers).
    public var maximumVersion: UInt32 {
        switch self {
        case .compositor: 5
        case .shm: 1
        case .xdgWmBase: 5
        case .layerShell: 4
        case .seat: 8
        case .output: 4
        case .viewporter, .fractionalScale, .cursorShape, .decorationManager: 1
        }
    }
}

/// `wl_seat.capability`: the input devices the seat has.
public struct SeatCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let pointer = SeatCapabilities(rawValue: 1)
    public static let keyboard = SeatCapabilities(rawValue: 2)
    public static let touch = SeatCapabilities(rawValue: 4)
    /// Pointer, keyboard and touch.
    public static let all: SeatCapabilities = [.pointer, .keyboard, .touch]
    public var description: String {
        let names = [(Self.pointer, "pointer"), (.keyboard, "keyboard"), (.touch, "touch")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }
}

/// When the compositor sends `wl_buffer.release` for a committed buffer.
public enum BufferReleaseMode: Hashable, Sendable {
    /// Right after the commit has copied the pixels (a copying compositor; the default).
    case immediate
    /// When a later commit replaces the buffer (the compositor keeps showing it until then).
    case whenReplaced
    /// Never on its own: each committed buffer stays held until the test calls
    /// ``TestCompositor/releaseBuffer(_:)`` or ``TestCompositor/releaseHeldBuffers()``.
    case hold
}

/// When the compositor answers committed `wl_surface.frame` callbacks with `done`.
public enum FrameCallbackMode: Hashable, Sendable {
    /// When the test advances the virtual clock with ``TestCompositor/advanceClock(by:)`` (the default).
    case virtualClock
    /// Never, whatever the clock does; ``TestCompositor/sendFrameCallbacks()`` still sends them.
    case withheld
    /// Right after the commit that carried them (a client that always draws will spin).
    case immediate
    /// Every `intervalMilliseconds` of real time, like a real output; each tick also advances the
    /// virtual clock by the interval.
    case realTime(intervalMilliseconds: UInt32)
}

/// Whether the touch and pointer helpers add `frame` events on their own.
public enum InputFraming: Hashable, Sendable {
    /// Each call sends exactly the event named, nothing else: the test sends `frame` itself (the default).
    case manual
    /// Every pointer or touch event is followed by a `frame`.
    case afterEachEvent
    /// Like `afterEachEvent`, except that `wl_touch.up` gets no `frame` (as some weston versions do,
    /// weston issue 44).
    case afterEachEventExceptTouchUp
}

/// The output the compositor advertises (one `wl_output`).
public struct OutputConfiguration: Hashable, Sendable {
    /// The current mode, in pixels.
    public var width: Int32 = 800
    public var height: Int32 = 600
    /// Refresh rate in mHz.
    public var refresh: Int32 = 60000
    /// `wl_output.scale`.
    public var scale: Int32 = 1
    /// `wl_output.name` (version 4).
    public var name = "TEST-1"
    /// `wl_output.geometry` make and model (the description is "make model").
    public var make = "wlslider"
    public var model = "test compositor"
    /// `wl_output.geometry` physical size (0 = unknown).
    public var physicalWidthMillimetres: Int32 = 0
    public var physicalHeightMillimetres: Int32 = 0
    public init() {}
}

/// How a ``TestCompositor`` starts. Every field has a default; change only what a test needs.
public struct Configuration: Sendable {
    /// The globals to advertise and their versions. Remove a key to start without that global;
    /// lower a version (e.g. `globals[.compositor] = 3`) to pose as an older compositor.
    public var globals: [Global: UInt32] = Dictionary(uniqueKeysWithValues: Global.allCases.map { ($0, $0.maximumVersion) })
    /// The one output.
    public var output = OutputConfiguration()
    /// The seat's devices at start.
    public var seatCapabilities: SeatCapabilities = .all
    /// `wl_keyboard.repeat_info`: characters per second (0 = no repeat) and delay in milliseconds.
    public var keyRepeat: (rate: Int32, delay: Int32) = (25, 600)
    /// When committed buffers are released (changeable later with ``TestCompositor/setBufferReleaseMode(_:)``).
    public var bufferRelease: BufferReleaseMode = .immediate
    /// When frame callbacks are answered (changeable later with ``TestCompositor/setFrameCallbackMode(_:)``).
    public var frameCallbacks: FrameCallbackMode = .virtualClock
    /// Whether input helpers add `frame` events (changeable later with ``TestCompositor/setInputFraming(_:)``).
    public var inputFraming: InputFraming = .manual
    /// Send the first configure on the initial commit of a toplevel or layer surface, as real
    /// compositors do. When false the test sends it with ``TestCompositor/configure(_:size:states:)``.
    public var configureOnInitialCommit = true
    /// The size in the automatic first configure of a toplevel (0×0 lets the client choose).
    public var initialToplevelSize = Size(width: 0, height: 0)
    /// The states in the automatic first configure of a toplevel.
    public var initialToplevelStates: [ToplevelStateFlag] = [.activated]
    /// Send `wl_surface.enter` for the output when a surface first shows a buffer.
    public var enterOutputOnFirstBuffer = true
    /// The `wp_fractional_scale_v1.preferred_scale` (in 120ths) sent when a client creates one;
    /// nil sends nothing until the test calls ``TestCompositor/sendPreferredScale(_:scale120:)``.
    public var preferredFractionalScale: UInt32? = 120
    /// Commits kept per surface (older ones are counted, not kept), bounding memory when a client
    /// draws for long.
    public var commitHistoryLimit = 128
    /// Print every request and event to standard error, like `WAYLAND_DEBUG=server`. Also switched
    /// on by the environment variable `TEST_COMPOSITOR_DEBUG=1`.
    public var logProtocol = false

    public init() {}
}
