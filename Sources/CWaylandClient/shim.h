/* libwayland-client, libwayland-cursor and the few libc calls Swift's Glibc module does not show. */
#ifndef WLSLIDER_C_WAYLAND_CLIENT_SHIM_H
#define WLSLIDER_C_WAYLAND_CLIENT_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <sys/mman.h>
#include <fcntl.h>

/* Addresses of the core interfaces, taken in C (see CWaylandProtocols.h for why). */
#define WLSLIDER_INTERFACE(name) \
    static inline const struct wl_interface *wlslider_##name##_interface(void) { return &name##_interface; }
WLSLIDER_INTERFACE(wl_compositor)
WLSLIDER_INTERFACE(wl_shm)
WLSLIDER_INTERFACE(wl_seat)
WLSLIDER_INTERFACE(wl_output)
WLSLIDER_INTERFACE(wl_subcompositor)
#undef WLSLIDER_INTERFACE

/* memfd_create and its flags are behind _GNU_SOURCE, which Swift's Glibc module does not define. */
static inline int wlslider_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}
/* Forbid shrinking the pool file, so the compositor's mapping can never fault (SIGBUS). */
static inline int wlslider_seal_shrink(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

#endif
