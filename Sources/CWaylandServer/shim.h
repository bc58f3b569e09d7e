/* libwayland-server, for the test compositor only, and the few Linux calls Swift's Glibc module
 * does not show. Those sit behind _GNU_SOURCE, which must not be defined here: it changes the
 * layout glibc headers give fd_set, and Swift then refuses to import this module next to Dispatch. */
#ifndef WLSLIDER_C_WAYLAND_SERVER_SHIM_H
#define WLSLIDER_C_WAYLAND_SERVER_SHIM_H

/* Keep wl_resource opaque (as in wayland-server-core.h): the deprecated full definition in
 * wayland-server.h would make Swift see it as a struct in some modules and opaque in others. */
#ifndef WL_HIDE_DEPRECATED
#define WL_HIDE_DEPRECATED
#endif
#include <wayland-server.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* wl_resource_post_error is variadic, which Swift cannot call. */
static inline void wlslider_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}

/* An anonymous file for the keymap the compositor hands to every wl_keyboard (MFD_CLOEXEC = 1). */
static inline int wlslider_server_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1U);
}

/* A pipe whose ends are close-on-exec from the start: other threads may spawn processes at any
 * moment, and must not inherit it. */
static inline int wlslider_pipe_cloexec(int fds[2]) {
    return (int)syscall(SYS_pipe2, fds, O_CLOEXEC);
}

/* A descriptor that becomes readable when the child exits, so the compositor's event loop sees a
 * client's exit without a SIGCHLD handler or a polling timer (Linux 5.3; no glibc wrapper). */
static inline int wlslider_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* The calling thread's kernel id, to check after shutdown that the server thread is gone. */
static inline pid_t wlslider_gettid(void) {
    return (pid_t)syscall(SYS_gettid);
}

#endif
