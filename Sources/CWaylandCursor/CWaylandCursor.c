/* See include/CWaylandCursor.h. */
#include "CWaylandCursor.h"

#include "CLoadLibrary.h"
#include <stddef.h>

static struct {
    void *handle;
    struct wl_cursor_theme *(*theme_load)(const char *, int, struct wl_shm *);
    void (*theme_destroy)(struct wl_cursor_theme *);
    struct wl_cursor *(*theme_get_cursor)(struct wl_cursor_theme *, const char *);
    struct wl_buffer *(*image_get_buffer)(struct wl_cursor_image *);
} api;

bool wlslider_wayland_cursor_load(const char *library, char *reason, size_t reason_size)
{
    /* Its own dependency, libwayland-client, is the copy wlslider links already. */
    const struct wlslider_library_symbol symbols[] = {
        { "wl_cursor_theme_load", (void **)&api.theme_load },
        { "wl_cursor_theme_destroy", (void **)&api.theme_destroy },
        { "wl_cursor_theme_get_cursor", (void **)&api.theme_get_cursor },
        { "wl_cursor_image_get_buffer", (void **)&api.image_get_buffer },
    };
    return wlslider_load_library(&api.handle, library, symbols, sizeof symbols / sizeof symbols[0], reason, reason_size);
}

static void require_loaded(void)
{
    wlslider_require_library(api.handle, "libwayland-cursor");
}

struct wl_cursor_theme *wlslider_wl_cursor_theme_load(const char *name, int size, struct wl_shm *shm)
{
    require_loaded();
    return api.theme_load(name, size, shm);
}

void wlslider_wl_cursor_theme_destroy(struct wl_cursor_theme *theme)
{
    require_loaded();
    api.theme_destroy(theme);
}

struct wl_cursor *wlslider_wl_cursor_theme_get_cursor(struct wl_cursor_theme *theme, const char *name)
{
    require_loaded();
    return api.theme_get_cursor(theme, name);
}

struct wl_buffer *wlslider_wl_cursor_image_get_buffer(struct wl_cursor_image *image)
{
    require_loaded();
    return api.image_get_buffer(image);
}
