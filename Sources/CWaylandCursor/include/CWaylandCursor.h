/* libwayland-cursor, loaded at run time: the four calls wlslider makes, through function pointers
 * filled by dlopen/dlsym, so that wlslider has no link-time dependency on it. A themed cursor is
 * drawn only when a pointer enters and the compositor offers no cursor-shape-v1
 * (Sources/WaylandClient/Cursor.swift); otherwise the dynamic loader would map and relocate the
 * library at every start for nothing.
 *
 * wayland-cursor.h is included for struct wl_cursor and struct wl_cursor_image (building needs
 * libwayland-dev); it also declares libwayland-cursor's functions, which wlslider must not call
 * directly: its binary does not link the library, so such a call fails to link.
 *
 * The library is libwayland-client's companion and uses the wl_shm and wl_buffer proxies of the
 * libwayland-client already loaded (the same soname, so the same copy).
 *
 * Every wrapper below traps if called before wlslider_wayland_cursor_load() succeeded (a
 * programmer error). */
#ifndef WLSLIDER_C_WAYLAND_CURSOR_H
#define WLSLIDER_C_WAYLAND_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <wayland-cursor.h>

/* Loads `library` (a soname such as "libwayland-cursor.so.0", or a path) and resolves every
 * function below. Returns true on success, or false with a one-line reason (dlerror's, or the
 * missing function's name) in `reason`. Loading again after a success returns true at once. */
bool wlslider_wayland_cursor_load(const char *library, char *reason, size_t reason_size);

/* libwayland-cursor's functions of the same names, less the `wlslider_` prefix. */
struct wl_cursor_theme *wlslider_wl_cursor_theme_load(const char *name, int size, struct wl_shm *shm);
void wlslider_wl_cursor_theme_destroy(struct wl_cursor_theme *theme);
struct wl_cursor *wlslider_wl_cursor_theme_get_cursor(struct wl_cursor_theme *theme, const char *name);
struct wl_buffer *wlslider_wl_cursor_image_get_buffer(struct wl_cursor_image *image);

#endif
