/* See include/CLibdecor.h. */
#include "CLibdecor.h"

#include "CLoadLibrary.h"
#include <stddef.h>

/* libdecor's struct libdecor_interface: an error callback, then ten reserved slots. */
struct libdecor_interface_abi {
    void (*error)(struct libdecor *context, int error, const char *message);
    void (*reserved[10])(void);
};

static struct {
    void *handle;
    struct libdecor *(*new_context)(struct wl_display *, struct libdecor_interface_abi *);
    void (*unref)(struct libdecor *);
    int (*get_fd)(struct libdecor *);
    int (*dispatch)(struct libdecor *, int);
    struct libdecor_frame *(*decorate)(struct libdecor *, struct wl_surface *,
                                       const struct wlslider_libdecor_frame_interface *, void *);
    void (*frame_unref)(struct libdecor_frame *);
    void (*frame_set_title)(struct libdecor_frame *, const char *);
    void (*frame_set_app_id)(struct libdecor_frame *, const char *);
    void (*frame_map)(struct libdecor_frame *);
    void (*frame_commit)(struct libdecor_frame *, struct libdecor_state *, struct libdecor_configuration *);
    struct libdecor_state *(*state_new)(int, int);
    void (*state_free)(struct libdecor_state *);
    bool (*configuration_get_content_size)(struct libdecor_configuration *, struct libdecor_frame *, int *, int *);
} api;

/* The one live context's error handler (libdecor's callback carries no user data). */
static bool context_alive;
static wlslider_libdecor_error_handler error_handler;
static void *error_data;

static void forward_error(struct libdecor *context, int error, const char *message)
{
    (void)context;
    if (error_handler)
        error_handler(error_data, error, message);
}

static struct libdecor_interface_abi context_interface = { .error = forward_error };

bool wlslider_libdecor_load(const char *library, char *reason, size_t reason_size)
{
    /* Loaded locally: libdecor's symbols (and its plugin's cairo, pango, glib) stay out of the
     * global namespace. */
    const struct wlslider_library_symbol symbols[] = {
        { "libdecor_new", (void **)&api.new_context },
        { "libdecor_unref", (void **)&api.unref },
        { "libdecor_get_fd", (void **)&api.get_fd },
        { "libdecor_dispatch", (void **)&api.dispatch },
        { "libdecor_decorate", (void **)&api.decorate },
        { "libdecor_frame_unref", (void **)&api.frame_unref },
        { "libdecor_frame_set_title", (void **)&api.frame_set_title },
        { "libdecor_frame_set_app_id", (void **)&api.frame_set_app_id },
        { "libdecor_frame_map", (void **)&api.frame_map },
        { "libdecor_frame_commit", (void **)&api.frame_commit },
        { "libdecor_state_new", (void **)&api.state_new },
        { "libdecor_state_free", (void **)&api.state_free },
        { "libdecor_configuration_get_content_size", (void **)&api.configuration_get_content_size },
    };
    return wlslider_load_library(&api.handle, library, symbols, sizeof symbols / sizeof symbols[0], reason, reason_size);
}

static void require_loaded(void)
{
    wlslider_require_library(api.handle, "libdecor");
}

struct libdecor *wlslider_libdecor_new(struct wl_display *display, wlslider_libdecor_error_handler on_error, void *data)
{
    require_loaded();
    if (context_alive)
        return NULL;
    /* Set before libdecor_new: a plugin may report an error from inside it. */
    error_handler = on_error;
    error_data = data;
    struct libdecor *context = api.new_context(display, &context_interface);
    context_alive = context != NULL;
    return context;
}

void wlslider_libdecor_unref(struct libdecor *context)
{
    require_loaded();
    api.unref(context);
    context_alive = false;
    error_handler = NULL;
    error_data = NULL;
}

int wlslider_libdecor_get_fd(struct libdecor *context)
{
    require_loaded();
    return api.get_fd(context);
}

int wlslider_libdecor_dispatch(struct libdecor *context, int timeout)
{
    require_loaded();
    return api.dispatch(context, timeout);
}

struct libdecor_frame *wlslider_libdecor_decorate(struct libdecor *context, struct wl_surface *surface,
                                                  const struct wlslider_libdecor_frame_interface *iface, void *user_data)
{
    require_loaded();
    return api.decorate(context, surface, iface, user_data);
}

void wlslider_libdecor_frame_unref(struct libdecor_frame *frame)
{
    require_loaded();
    api.frame_unref(frame);
}

void wlslider_libdecor_frame_set_title(struct libdecor_frame *frame, const char *title)
{
    require_loaded();
    api.frame_set_title(frame, title);
}

void wlslider_libdecor_frame_set_app_id(struct libdecor_frame *frame, const char *app_id)
{
    require_loaded();
    api.frame_set_app_id(frame, app_id);
}

void wlslider_libdecor_frame_map(struct libdecor_frame *frame)
{
    require_loaded();
    api.frame_map(frame);
}

void wlslider_libdecor_frame_commit_size(struct libdecor_frame *frame, int width, int height,
                                         struct libdecor_configuration *configuration)
{
    require_loaded();
    struct libdecor_state *state = api.state_new(width, height);
    api.frame_commit(frame, state, configuration);
    api.state_free(state);
}

bool wlslider_libdecor_configuration_get_content_size(struct libdecor_configuration *configuration,
                                                      struct libdecor_frame *frame, int *width, int *height)
{
    require_loaded();
    return api.configuration_get_content_size(configuration, frame, width, height);
}
