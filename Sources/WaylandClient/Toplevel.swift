// The xdg_toplevel role: an ordinary window.
internal import CWaylandProtocols

/// `xdg_surface` + `xdg_toplevel` of a SliderSurface. Acknowledges each configure and reports the
/// resulting logical size to its surface.
final class Toplevel {
    private unowned let surface: SliderSurface
    private let xdgSurface: OpaquePointer
    private let xdgToplevel: OpaquePointer
    private let preferredSize: LogicalSize
    /// The size of the latest `xdg_toplevel.configure`, applied by the `xdg_surface.configure` that
    /// closes the sequence.
    private var pendingWidth: Int32 = 0
    private var pendingHeight: Int32 = 0

    init(wmBase: OpaquePointer, surface: SliderSurface, title: String, appID: String, preferredSize: LogicalSize) {
        self.surface = surface
        self.preferredSize = preferredSize
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface.proxy)
        xdgToplevel = xdg_surface_get_toplevel(xdgSurface)
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, Listeners.xdgSurface, me)
        xdg_toplevel_add_listener(xdgToplevel, Listeners.xdgToplevel, me)
        xdg_toplevel_set_title(xdgToplevel, title)
        xdg_toplevel_set_app_id(xdgToplevel, appID)
    }

    deinit {
        xdg_toplevel_destroy(xdgToplevel)
        xdg_surface_destroy(xdgSurface)
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

    /// The size to use for a toplevel configure: the compositor's in each axis, except where it sent
    /// 0 ("client's choice") — then the preferred size. Negative values are treated as 0.
    static func configuredSize(width: Int32, height: Int32, preferred: LogicalSize) -> LogicalSize {
        LogicalSize(width: width > 0 ? width : max(preferred.width, 1),
                    height: height > 0 ? height : max(preferred.height, 1))
    }
}
