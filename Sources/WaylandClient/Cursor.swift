// The pointer image, set on every wl_pointer.enter: cursor-shape-v1 "default" where the compositor
// offers it; else the themed cursor from libwayland-cursor (XCURSOR_THEME / XCURSOR_SIZE, with
// libwayland-cursor's built-in cursors when no theme is installed), which is loaded then
// (RuntimeLibraries.swift); else nothing is set, and the compositor shows what it likes.
import Posix
internal import CWaylandClient
internal import CWaylandCursor
internal import CWaylandProtocols

final class CursorImages {
    private unowned let connection: WaylandConnection
    /// Loaded themes by integer scale (the size is multiplied by the scale).
    private var themes: [Int32: OpaquePointer] = [:]
    private var surface: OpaquePointer?

    /// The nominal cursor size: XCURSOR_SIZE, else 24 (the common default).
    static func baseSize(_ environmentValue: String?) -> Int32 {
        guard let environmentValue, let size = Int32(environmentValue), size > 0, size <= 512 else { return 24 }
        return size
    }

    init(connection: WaylandConnection) {
        self.connection = connection
    }

    deinit {
        if let surface { wl_surface_destroy(surface) }
        for theme in themes.values { wlslider_wl_cursor_theme_destroy(theme) }
    }

    func apply(to pointer: Pointer, serial: UInt32, scale: Int32) {
        if let device = pointer.shapeDevice {
            wp_cursor_shape_device_v1_set_shape(device, serial, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT.rawValue)
            return
        }
        guard let theme = theme(scale: scale),
              let cursor = wlslider_wl_cursor_theme_get_cursor(theme, "default")
                ?? wlslider_wl_cursor_theme_get_cursor(theme, "left_ptr"),
              cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
              let buffer = wlslider_wl_cursor_image_get_buffer(image) else { return }
        let width = Int32(image.pointee.width), height = Int32(image.pointee.height)
        // A buffer must be a whole multiple of its scale; a theme without an image that large shows
        // its smaller image unscaled instead.
        let bufferScale = width % scale == 0 && height % scale == 0 ? scale : 1
        let surface = self.surface ?? wl_compositor_create_surface(connection.compositor.proxy)!
        self.surface = surface
        wl_surface_set_buffer_scale(surface, bufferScale)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        wl_pointer_set_cursor(pointer.proxy, serial, surface, Int32(image.pointee.hotspot_x) / bufferScale,
                              Int32(image.pointee.hotspot_y) / bufferScale)
    }

    /// The theme at `scale`, loaded on first use (and libwayland-cursor with the first one); nil
    /// without libwayland-cursor, which is said once.
    private func theme(scale: Int32) -> OpaquePointer? {
        if let theme = themes[scale] { return theme }
        if let reason = WaylandCursorLibrary.failure {
            connection.warn("wl_pointer: no wp_cursor_shape_manager_v1, and libwayland-cursor could not be loaded (\(reason)); "
                + "the slider sets no cursor image; install libwayland-cursor0 for one", once: .cursorLibrary)
            return nil
        }
        let size = CursorImages.baseSize(environmentVariable("XCURSOR_SIZE")) * max(scale, 1)
        guard let theme = wlslider_wl_cursor_theme_load(environmentVariable("XCURSOR_THEME"), size, connection.shm.proxy) else { return nil }
        themes[scale] = theme
        return theme
    }
}
