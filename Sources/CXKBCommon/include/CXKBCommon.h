/* libxkbcommon, loaded at run time: the few calls wlslider makes, through function pointers filled
 * by dlopen/dlsym, so that wlslider has no link-time dependency on it. The dynamic loader would
 * otherwise map and relocate it at every start, before `main`, though nothing needs it before the
 * first key: the keymap is compiled then (Sources/WaylandClient/Keyboard.swift).
 *
 * xkbcommon's own headers are included for its types and constants (building needs
 * libxkbcommon-dev); they also declare xkbcommon's functions, which wlslider must not call
 * directly: its binary does not link the library, so such a call fails to link. The test
 * compositor, which links libxkbcommon, does call them.
 *
 * Every wrapper below traps if called before wlslider_xkb_load() succeeded (a programmer error). */
#ifndef WLSLIDER_C_XKBCOMMON_H
#define WLSLIDER_C_XKBCOMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-keysyms.h>

/* Loads `library` (a soname such as "libxkbcommon.so.0", or a path) and resolves every function
 * below. Returns true on success, or false with a one-line reason (dlerror's, or the missing
 * function's name) in `reason`. Loading again after a success returns true at once. */
bool wlslider_xkb_load(const char *library, char *reason, size_t reason_size);

/* xkbcommon's functions of the same names, less the `wlslider_` prefix. */
struct xkb_context *wlslider_xkb_context_new(enum xkb_context_flags flags);
/* `log_fn` receives xkbcommon's printf-style messages (format and arguments as a va_list). */
void wlslider_xkb_context_set_log_fn(struct xkb_context *context,
                                     void (*log_fn)(struct xkb_context *context, enum xkb_log_level level,
                                                    const char *format, va_list args));
void wlslider_xkb_context_unref(struct xkb_context *context);

struct xkb_keymap *wlslider_xkb_keymap_new_from_buffer(struct xkb_context *context, const char *buffer, size_t length,
                                                       enum xkb_keymap_format format, enum xkb_keymap_compile_flags flags);
void wlslider_xkb_keymap_unref(struct xkb_keymap *keymap);
int wlslider_xkb_keymap_key_repeats(struct xkb_keymap *keymap, xkb_keycode_t key);

struct xkb_state *wlslider_xkb_state_new(struct xkb_keymap *keymap);
void wlslider_xkb_state_unref(struct xkb_state *state);
enum xkb_state_component wlslider_xkb_state_update_mask(struct xkb_state *state, xkb_mod_mask_t depressed_mods,
                                                        xkb_mod_mask_t latched_mods, xkb_mod_mask_t locked_mods,
                                                        xkb_layout_index_t depressed_layout,
                                                        xkb_layout_index_t latched_layout,
                                                        xkb_layout_index_t locked_layout);
xkb_keysym_t wlslider_xkb_state_key_get_one_sym(struct xkb_state *state, xkb_keycode_t key);
int wlslider_xkb_state_mod_name_is_active(struct xkb_state *state, const char *name, enum xkb_state_component type);

int wlslider_xkb_keysym_get_name(xkb_keysym_t keysym, char *buffer, size_t size);

#endif
