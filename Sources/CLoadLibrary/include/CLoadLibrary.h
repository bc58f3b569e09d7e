/* Loading a shared library at run time, for the shims of libraries wlslider does not link
 * (CXKBCommon, CWaylandCursor, CLibdecor, CJack): each lists the functions it uses, and this
 * opens the library and resolves them all, or none. */
#ifndef WLSLIDER_CLOADLIBRARY_H
#define WLSLIDER_CLOADLIBRARY_H
#include <stdbool.h>
#include <stddef.h>

/* One function a shim needs: its name in the library and where its address goes. */
struct wlslider_library_symbol {
    const char *name;
    void **slot;
};

/* Unless `*handle` is set already (the library is loaded: true at once), dlopen(library,
 * RTLD_NOW | RTLD_LOCAL) — the library's symbols stay out of the global namespace, where a
 * library loaded later could bind to them by accident — then every symbol into its slot, and the
 * handle into `*handle`. False when the library does not load or lacks a symbol, with every slot
 * cleared, `*handle` left NULL and the reason (dlerror's text, or "LIBRARY has no SYMBOL") in
 * `reason`. */
bool wlslider_load_library(void **handle, const char *library, const struct wlslider_library_symbol *symbols,
                           size_t count, char *reason, size_t reason_size);

/* A shim's function called before its library loaded: a programmer error, reported on stderr
 * (naming `library`) before abort(). Returns when `handle` is set. */
void wlslider_require_library(const void *handle, const char *library);

#endif
