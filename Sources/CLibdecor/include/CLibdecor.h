/* libdecor, loaded at run time: the few calls wlslider makes, through function pointers filled by
 * dlopen/dlsym, so that wlslider has no link-time dependency on libdecor and a compositor that
 * draws decorations itself (xdg-decoration) costs nothing: libdecor and its plugin (cairo, pango,
 * fontconfig, ~50 libraries) are loaded only for a compositor that offers none (mutter).
 *
 * The declarations mirror libdecor.h of libdecor 0.1 (Debian 12: libdecor-0-0 0.1.1; the ABI is
 * the same in 0.2): the types are declared here, not included, so that building wlslider needs no
 * libdecor-0-dev. Only the members and functions wlslider uses are named; the listener structs
 * keep libdecor's layout (reserved slots included), as libdecor reads them by offset.
 *
 * Every wrapper below traps if called before wlslider_libdecor_load() succeeded (a programmer
 * error). */
#ifndef WLSLIDER_C_LIBDECOR_H
#define WLSLIDER_C_LIBDECOR_H

#include <stdbool.h>
#include <stddef.h>

struct wl_display;
struct wl_surface;
struct libdecor;
struct libdecor_frame;
struct libdecor_configuration;
struct libdecor_state;

/* libdecor's struct libdecor_frame_interface: four callbacks, then ten reserved slots. */
struct wlslider_libdecor_frame_interface {
    /* A configure: answer with wlslider_libdecor_frame_commit(frame, state, configuration) inside
     * the callback (libdecor frees the configuration when it returns). */
    void (*configure)(struct libdecor_frame *frame, struct libdecor_configuration *configuration, void *user_data);
    /* The user or compositor closed the window. */
    void (*close)(struct libdecor_frame *frame, void *user_data);
    /* The decorations (synchronised subsurfaces) changed: commit the main surface to show them. */
    void (*commit)(struct libdecor_frame *frame, void *user_data);
    /* Dismiss popups grabbing `seat_name` (wlslider has none). */
    void (*dismiss_popup)(struct libdecor_frame *frame, const char *seat_name, void *user_data);
    void (*reserved[10])(void);
};

/* Loads `library` (a soname such as "libdecor-0.so.0", or a path) and resolves every function
 * below. Returns true on success, or false with a one-line reason (dlerror's) in `reason`. Loading
 * again after a success returns true at once. */
bool wlslider_libdecor_load(const char *library, char *reason, size_t reason_size);

/* libdecor's error callback: LIBDECOR_ERROR_COMPOSITOR_INCOMPATIBLE (0) or
 * LIBDECOR_ERROR_INVALID_FRAME_CONFIGURATION (1), and libdecor's message. */
typedef void (*wlslider_libdecor_error_handler)(void *data, int error, const char *message);

/* libdecor_new: a context on `display`, sharing its default event queue. libdecor's error callback
 * names only the context, so the shim keeps `on_error` and `data` for it: one context at a time
 * (NULL while another one lives). */
struct libdecor *wlslider_libdecor_new(struct wl_display *display, wlslider_libdecor_error_handler on_error, void *data);
void wlslider_libdecor_unref(struct libdecor *context);
int wlslider_libdecor_get_fd(struct libdecor *context);
int wlslider_libdecor_dispatch(struct libdecor *context, int timeout);

struct libdecor_frame *wlslider_libdecor_decorate(struct libdecor *context, struct wl_surface *surface,
                                                  const struct wlslider_libdecor_frame_interface *iface, void *user_data);
void wlslider_libdecor_frame_unref(struct libdecor_frame *frame);
void wlslider_libdecor_frame_set_title(struct libdecor_frame *frame, const char *title);
void wlslider_libdecor_frame_set_app_id(struct libdecor_frame *frame, const char *app_id);
void wlslider_libdecor_frame_map(struct libdecor_frame *frame);

/* Answers `configuration` (NULL: an application-driven change) with a content size: libdecor_state_new,
 * libdecor_frame_commit, libdecor_state_free. */
void wlslider_libdecor_frame_commit_size(struct libdecor_frame *frame, int width, int height,
                                         struct libdecor_configuration *configuration);
/* libdecor_configuration_get_content_size: false when the compositor left the size to the client. */
bool wlslider_libdecor_configuration_get_content_size(struct libdecor_configuration *configuration,
                                                      struct libdecor_frame *frame, int *width, int *height);

#endif
