/* See include/CLoadLibrary.h. */
#include "CLoadLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

bool wlslider_load_library(void **handle, const char *library, const struct wlslider_library_symbol *symbols,
                           size_t count, char *reason, size_t reason_size)
{
    if (*handle)
        return true;
    void *opened = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!opened) {
        snprintf(reason, reason_size, "%s", dlerror());
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(opened, symbols[i].name);
        if (!*symbols[i].slot) {
            snprintf(reason, reason_size, "%s has no %s", library, symbols[i].name);
            for (size_t j = 0; j < count; j++)
                *symbols[j].slot = NULL;
            dlclose(opened);
            return false;
        }
    }
    *handle = opened;
    return true;
}

void wlslider_require_library(const void *handle, const char *library)
{
    if (!handle) {
        fprintf(stderr, "wlslider: %s called before it was loaded\n", library);
        abort();
    }
}
