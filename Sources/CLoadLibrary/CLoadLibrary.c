/* See include/CLoadLibrary.h. */
#include "CLoadLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

void *wlslider_load_library(const char *library, const struct wlslider_library_symbol *symbols, size_t count,
                            char *reason, size_t reason_size)
{
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(reason, reason_size, "%s", dlerror());
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(handle, symbols[i].name);
        if (!*symbols[i].slot) {
            snprintf(reason, reason_size, "%s has no %s", library, symbols[i].name);
            for (size_t j = 0; j < count; j++)
                *symbols[j].slot = NULL;
            dlclose(handle);
            return NULL;
        }
    }
    return handle;
}
