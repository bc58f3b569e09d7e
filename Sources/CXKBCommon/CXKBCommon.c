/* See include/CXKBCommon.h. */
#include "CXKBCommon.h"

#include "CLoadLibrary.h"
#include <stddef.h>

typedef void (*log_fn_t)(struct xkb_context *, enum xkb_log_level, const char *, va_list);

static struct {
    void *handle;
    struct xkb_context *(*context_new)(enum xkb_context_flags);
    void (*context_set_log_fn)(struct xkb_context *, log_fn_t);
    void (*context_unref)(struct xkb_context *);
    struct xkb_keymap *(*keymap_new_from_buffer)(struct xkb_context *, const char *, size_t,
                                                 enum xkb_keymap_format, enum xkb_keymap_compile_flags);
    void (*keymap_unref)(struct xkb_keymap *);
    int (*keymap_key_repeats)(struct xkb_keymap *, xkb_keycode_t);
    struct xkb_state *(*state_new)(struct xkb_keymap *);
    void (*state_unref)(struct xkb_state *);
    enum xkb_state_component (*state_update_mask)(struct xkb_state *, xkb_mod_mask_t, xkb_mod_mask_t, xkb_mod_mask_t,
                                                  xkb_layout_index_t, xkb_layout_index_t, xkb_layout_index_t);
    xkb_keysym_t (*state_key_get_one_sym)(struct xkb_state *, xkb_keycode_t);
    int (*state_mod_name_is_active)(struct xkb_state *, const char *, enum xkb_state_component);
    int (*keysym_get_name)(xkb_keysym_t, char *, size_t);
} api;

bool wlslider_xkb_load(const char *library, char *reason, size_t reason_size)
{
    const struct wlslider_library_symbol symbols[] = {
        { "xkb_context_new", (void **)&api.context_new },
        { "xkb_context_set_log_fn", (void **)&api.context_set_log_fn },
        { "xkb_context_unref", (void **)&api.context_unref },
        { "xkb_keymap_new_from_buffer", (void **)&api.keymap_new_from_buffer },
        { "xkb_keymap_unref", (void **)&api.keymap_unref },
        { "xkb_keymap_key_repeats", (void **)&api.keymap_key_repeats },
        { "xkb_state_new", (void **)&api.state_new },
        { "xkb_state_unref", (void **)&api.state_unref },
        { "xkb_state_update_mask", (void **)&api.state_update_mask },
        { "xkb_state_key_get_one_sym", (void **)&api.state_key_get_one_sym },
        { "xkb_state_mod_name_is_active", (void **)&api.state_mod_name_is_active },
        { "xkb_keysym_get_name", (void **)&api.keysym_get_name },
    };
    return wlslider_load_library(&api.handle, library, symbols, sizeof symbols / sizeof symbols[0], reason, reason_size);
}

static void require_loaded(void)
{
    wlslider_require_library(api.handle, "xkbcommon");
}

struct xkb_context *wlslider_xkb_context_new(enum xkb_context_flags flags)
{
    require_loaded();
    return api.context_new(flags);
}

void wlslider_xkb_context_set_log_fn(struct xkb_context *context, log_fn_t log_fn)
{
    require_loaded();
    api.context_set_log_fn(context, log_fn);
}

void wlslider_xkb_context_unref(struct xkb_context *context)
{
    require_loaded();
    api.context_unref(context);
}

struct xkb_keymap *wlslider_xkb_keymap_new_from_buffer(struct xkb_context *context, const char *buffer, size_t length,
                                                       enum xkb_keymap_format format, enum xkb_keymap_compile_flags flags)
{
    require_loaded();
    return api.keymap_new_from_buffer(context, buffer, length, format, flags);
}

void wlslider_xkb_keymap_unref(struct xkb_keymap *keymap)
{
    require_loaded();
    api.keymap_unref(keymap);
}

int wlslider_xkb_keymap_key_repeats(struct xkb_keymap *keymap, xkb_keycode_t key)
{
    require_loaded();
    return api.keymap_key_repeats(keymap, key);
}

struct xkb_state *wlslider_xkb_state_new(struct xkb_keymap *keymap)
{
    require_loaded();
    return api.state_new(keymap);
}

void wlslider_xkb_state_unref(struct xkb_state *state)
{
    require_loaded();
    api.state_unref(state);
}

enum xkb_state_component wlslider_xkb_state_update_mask(struct xkb_state *state, xkb_mod_mask_t depressed_mods,
                                                        xkb_mod_mask_t latched_mods, xkb_mod_mask_t locked_mods,
                                                        xkb_layout_index_t depressed_layout,
                                                        xkb_layout_index_t latched_layout,
                                                        xkb_layout_index_t locked_layout)
{
    require_loaded();
    return api.state_update_mask(state, depressed_mods, latched_mods, locked_mods,
                                 depressed_layout, latched_layout, locked_layout);
}

xkb_keysym_t wlslider_xkb_state_key_get_one_sym(struct xkb_state *state, xkb_keycode_t key)
{
    require_loaded();
    return api.state_key_get_one_sym(state, key);
}

int wlslider_xkb_state_mod_name_is_active(struct xkb_state *state, const char *name, enum xkb_state_component type)
{
    require_loaded();
    return api.state_mod_name_is_active(state, name, type);
}

int wlslider_xkb_keysym_get_name(xkb_keysym_t keysym, char *buffer, size_t size)
{
    require_loaded();
    return api.keysym_get_name(keysym, buffer, size);
}
