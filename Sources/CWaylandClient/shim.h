/* libwayland-client, libwayland-cursor and the few libc calls Swift's Glibc module does not show. */
#ifndef WLSLIDER_C_WAYLAND_CLIENT_SHIM_H
#define WLSLIDER_C_WAYLAND_CLIENT_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/* Addresses of the core interfaces, taken in C (see CWaylandProtocols.h for why). */
#define WLSLIDER_INTERFACE(name) \
    static inline const struct wl_interface *wlslider_##name##_interface(void) { return &name##_interface; }
WLSLIDER_INTERFACE(wl_compositor)
WLSLIDER_INTERFACE(wl_shm)
WLSLIDER_INTERFACE(wl_seat)
WLSLIDER_INTERFACE(wl_output)
WLSLIDER_INTERFACE(wl_subcompositor)
#undef WLSLIDER_INTERFACE

/* libwayland-client prints some failures on stderr itself ("error: XDG_RUNTIME_DIR is invalid or
 * not set in the environment."). wlslider reports every failure in one line of its own that says
 * the same, so the library's log is silenced (WAYLAND_DEBUG tracing is not affected). */
static inline void wlslider_wayland_log_handler(const char *format, va_list arguments) {
    (void)format;
    (void)arguments;
}
static inline void wlslider_silence_wayland_log(void) {
    wl_log_set_handler_client(wlslider_wayland_log_handler);
}

/* memfd_create and its flags are behind _GNU_SOURCE, which Swift's Glibc module does not define. */
static inline int wlslider_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}
/* Forbid shrinking the pool file, so the compositor's mapping can never fault (SIGBUS). */
static inline int wlslider_seal_shrink(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

/* signalfd and timerfd are not in Swift's Glibc module either. */

/* Blocks `signals` for the calling thread (so they stay pending instead of killing the process) and
 * returns a non-blocking signalfd that reports them, or -1 with errno set. */
static inline int wlslider_signalfd_block(const int *signals, int count) {
    sigset_t mask;
    sigemptyset(&mask);
    for (int i = 0; i < count; i++) sigaddset(&mask, signals[i]);
    int rc = pthread_sigmask(SIG_BLOCK, &mask, NULL);
    if (rc != 0) { errno = rc; return -1; }
    return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}
/* Reads one pending signal from a signalfd: its number, 0 when none is pending, -1 with errno. */
static inline int wlslider_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (n < 0 && errno == EAGAIN) return 0;
    if (n >= 0) errno = EIO;
    return -1;
}
/* A non-blocking CLOCK_MONOTONIC timerfd, or -1 with errno. */
static inline int wlslider_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}
/* Arms (initial > 0) or disarms (initial == 0) a timerfd; interval 0 = one shot. 0 or -1 with errno. */
static inline int wlslider_timerfd_arm(int fd, uint64_t initial_ns, uint64_t interval_ns) {
    struct itimerspec spec = {
        .it_interval = { .tv_sec = (time_t)(interval_ns / 1000000000u), .tv_nsec = (long)(interval_ns % 1000000000u) },
        .it_value = { .tv_sec = (time_t)(initial_ns / 1000000000u), .tv_nsec = (long)(initial_ns % 1000000000u) },
    };
    return timerfd_settime(fd, 0, &spec, NULL);
}

#endif
