/* libwayland-client (libc calls Swift's Glibc module hides are in CPosix; libwayland-cursor is
 * loaded at run time by CWaylandCursor). */
#ifndef WLSLIDER_C_WAYLAND_CLIENT_SHIM_H
#define WLSLIDER_C_WAYLAND_CLIENT_SHIM_H

#include <wayland-client.h>
#include <stdarg.h>
#include <stdint.h>

/* Addresses of the core interfaces, taken in C (see CWaylandProtocols.h for why). */
#define WLSLIDER_INTERFACE(name) \
    static inline const struct wl_interface *wlslider_##name##_interface(void) { return &name##_interface; }
WLSLIDER_INTERFACE(wl_compositor)
WLSLIDER_INTERFACE(wl_shm)
WLSLIDER_INTERFACE(wl_seat)
WLSLIDER_INTERFACE(wl_output)
WLSLIDER_INTERFACE(wl_subcompositor)
#undef WLSLIDER_INTERFACE

/* libwayland-client prints some failures on stderr itself ("error: XDG_RUNTIME_DIR is invalid or
 * not set in the environment."). wlslider reports every failure in one line of its own that says
 * the same, so the library's log is silenced (WAYLAND_DEBUG tracing is not affected). */
static inline void wlslider_wayland_log_handler(const char *format, va_list arguments) {
    (void)format;
    (void)arguments;
}
static inline void wlslider_silence_wayland_log(void) {
    wl_log_set_handler_client(wlslider_wayland_log_handler);
}

#endif
