// The xdg_toplevel role: an ordinary window, decorated by the compositor where it offers
// xdg-decoration (see Decorations.swift for the other routes).
internal import CWaylandProtocols

/// `xdg_surface` + `xdg_toplevel` of a SliderSurface. Acknowledges each configure and reports the
/// resulting logical size to its surface. With `decorationManager`, asks the compositor to draw
/// the title bar and borders (`server_side`) and follows the mode it configures.
final class Toplevel {
    private unowned let surface: SliderSurface
    private let xdgSurface: OpaquePointer
    private let xdgToplevel: OpaquePointer
    private var decoration: OpaquePointer?
    /// The mode of the latest `zxdg_toplevel_decoration_v1.configure` (nil before one, or without
    /// xdg-decoration).
    private(set) var decorationMode: DecorationMode?
    private let preferredSize: LogicalSize
    /// The size of the latest `xdg_toplevel.configure`, applied by the `xdg_surface.configure` that
    /// closes the sequence.
    private var pendingWidth: Int32 = 0
    private var pendingHeight: Int32 = 0

    init(wmBase: OpaquePointer, surface: SliderSurface, title: String, appID: String, preferredSize: LogicalSize,
         decorationManager: OpaquePointer?) {
        self.surface = surface
        self.preferredSize = preferredSize
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface.proxy)
        xdgToplevel = xdg_surface_get_toplevel(xdgSurface)
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, Listeners.xdgSurface, me)
        xdg_toplevel_add_listener(xdgToplevel, Listeners.xdgToplevel, me)
        let connection = surface.connection
        xdg_toplevel_set_title(xdgToplevel, Toplevel.fittingMessage(title, request: "xdg_toplevel.set_title", what: "title",
                                                                    connection: connection))
        xdg_toplevel_set_app_id(xdgToplevel, Toplevel.fittingMessage(appID, request: "xdg_toplevel.set_app_id", what: "app id",
                                                                     connection: connection))
        if let decorationManager {
            // Before the initial commit, so the first configure already carries the mode.
            let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(decorationManager, xdgToplevel)
            zxdg_toplevel_decoration_v1_add_listener(decoration, Listeners.toplevelDecoration, me)
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
            self.decoration = decoration
        }
    }

    /// `text`, cut to what one request can carry, with a warning when it was cut.
    static func fittingMessage(_ text: String, request: String, what: String, connection: WaylandConnection) -> String {
        let wire = Toplevel.wireString(text)
        if wire.utf8.count < text.utf8.count {
            connection.warn("\(request): the \(what) is \(text.utf8.count) bytes, more than a Wayland message "
                + "holds; cut to \(wire.utf8.count) bytes", once: .title)
        }
        return wire
    }

    deinit {
        // The decoration object first: destroying its toplevel before it is a protocol error (orphaned).
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        xdg_toplevel_destroy(xdgToplevel)
        xdg_surface_destroy(xdgSurface)
    }

    /// `zxdg_toplevel_decoration_v1.configure`: the mode the compositor chose. Client-side means
    /// wlslider should draw a title bar itself, which it cannot: the window stays bare, said once.
    func decorationConfigure(mode raw: UInt32) {
        let mode = DecorationMode(raw)
        decorationMode = mode
        if mode != .serverSide {
            surface.connection.warn("zxdg_toplevel_decoration_v1: the compositor asks for \(mode) decorations, which wlslider "
                + "does not draw; the window has no title bar", once: .decorations)
        }
    }

    func configure(width: Int32, height: Int32) {
        pendingWidth = width
        pendingHeight = height
    }

    func surfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        if pendingWidth < 0 || pendingHeight < 0 {
            surface.connection.warn("xdg_toplevel.configure: a negative size \(pendingWidth)x\(pendingHeight) means "
                + "nothing; taking it as 0 (the client's choice)", once: .negativeSize)
        }
        surface.roleConfigured(Toplevel.configuredSize(width: pendingWidth, height: pendingHeight, preferred: preferredSize))
    }

    func close() {
        surface.roleClosed()
    }

    /// The mode a `zxdg_toplevel_decoration_v1.configure` names.
    enum DecorationMode: Equatable, Sendable, CustomStringConvertible {
        case clientSide, serverSide, unknown(UInt32)

        init(_ raw: UInt32) {
            switch raw {
            case ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue: self = .clientSide
            case ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue: self = .serverSide
            default: self = .unknown(raw)
            }
        }

        var description: String {
            switch self {
            case .clientSide: "client-side"
            case .serverSide: "server-side"
            case .unknown(let raw): "mode-\(raw)"
            }
        }
    }

    /// The longest string one request with a single string argument can carry, in bytes. libwayland
    /// sends each message whole through its 4096-byte connection buffer (connection.c; a larger
    /// one fails with E2BIG and the connection is dead): 8 bytes of header, 4 of string length,
    /// then the string and its NUL padded to a multiple of 4, so 4096 − 12 − 1 = 4083 bytes of
    /// text. Checked with libwayland 1.21: a 4083-byte title goes through, a 4084-byte one does not.
    static let maximumStringBytes = 4083

    /// `text` cut at the last character (grapheme cluster, else Unicode scalar) boundary that keeps
    /// it within `maximumStringBytes` of UTF-8; unchanged when it fits.
    static func wireString(_ text: String, maximumBytes: Int = maximumStringBytes) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        var end = text.startIndex, bytes = 0
        for character in text {
            let length = character.utf8.count
            guard bytes + length <= maximumBytes else { break }
            bytes += length
            end = text.index(after: end)
        }
        // A character too long on its own (say, a letter with thousands of combining marks).
        if end == text.startIndex {
            for scalar in text.unicodeScalars {
                let length = String(scalar).utf8.count
                guard bytes + length <= maximumBytes else { break }
                bytes += length
                end = text.unicodeScalars.index(after: end)
            }
        }
        return String(text.unicodeScalars[..<end])
    }

    /// The size to use for a toplevel configure: the compositor's in each axis, except where it sent
    /// 0 ("client's choice") — then the preferred size. Negative values are treated as 0.
    static func configuredSize(width: Int32, height: Int32, preferred: LogicalSize) -> LogicalSize {
        LogicalSize(width: width > 0 ? width : max(preferred.width, 1),
                    height: height > 0 ? height : max(preferred.height, 1))
    }
}
