/* The Linux calls Swift's Glibc module does not show (they sit behind _GNU_SOURCE, or have no glibc
 * wrapper), as plain functions. This header defines no feature macro and includes only headers
 * Swift's Glibc module includes too, so importing it changes no glibc type; the functions are
 * compiled in CPosix.c, with _GNU_SOURCE. Each returns what the call returns (-1 with errno set on
 * failure) unless it says otherwise. */
#ifndef WLSLIDER_CPOSIX_H
#define WLSLIDER_CPOSIX_H

#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/types.h>

/* memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING). */
int cposix_memfd_create(const char *name);
/* Forbids shrinking the file (F_SEAL_SHRINK | F_SEAL_SEAL), so another process's mapping of it can
 * never fault. */
int cposix_seal_shrink(int fd);

/* Blocks `signals` for the calling thread (so they stay pending instead of acting) and returns a
 * non-blocking, close-on-exec signalfd that reports them. */
int cposix_signalfd_block(const int *signals, int count);
/* Reads one pending signal from a signalfd: its number, 0 when none is pending, -1 with errno. */
int cposix_signalfd_read(int fd);


/* epoll, in poll(2) bits (POLLIN, POLLOUT; POLLERR and POLLHUP come back whatever was asked),
 * level-triggered, each registration with its descriptor number as its data: <sys/epoll.h> is not
 * in Swift's Glibc module, and struct epoll_event is packed on x86_64, so Swift never sees it. */
/* epoll_create1(EPOLL_CLOEXEC). */
int cposix_epoll_create(void);
/* epoll_ctl(EPOLL_CTL_ADD / EPOLL_CTL_MOD / EPOLL_CTL_DEL). */
int cposix_epoll_add(int epfd, int fd, short events);
int cposix_epoll_modify(int epfd, int fd, short events);
int cposix_epoll_remove(int epfd, int fd);
/* The bytes of one struct epoll_event, to size the buffer cposix_epoll_wait fills. */
size_t cposix_epoll_event_size(void);
/* epoll_wait(2) into `events`, room for `capacity` of them: how many are ready. */
int cposix_epoll_wait(int epfd, void *events, int capacity, int timeout);
/* Ready event `index` of that buffer: its poll(2) bits, and its descriptor in `*fd`. */
short cposix_epoll_ready(const void *events, int index, int *fd);

/* A timerfd on CLOCK_MONOTONIC (close-on-exec, non-blocking). */
int cposix_timerfd_create(void);
/* Arms it to expire at `deadline`, nanoseconds on CLOCK_MONOTONIC (an instant already past expires
 * at once); 0 disarms it. Either resets its expiration count, so it stops being readable. */
int cposix_timerfd_arm(int fd, uint64_t deadline);

/* pidfd_open(2) (Linux 5.3): a descriptor that becomes readable when `pid` exits. */
int cposix_pidfd_open(pid_t pid);

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
 * `lowest` up. Returns 0 or an error number (as posix_spawn's functions do). */
int cposix_spawn_closefrom(posix_spawn_file_actions_t *actions, int lowest);

/* The status macros of <sys/wait.h>, which Swift cannot import. */
int cposix_wait_exited(int status);
int cposix_wait_exit_status(int status);
int cposix_wait_signalled(int status);
int cposix_wait_term_signal(int status);

/* The C library's environment, for posix_spawn. */
char **cposix_environ(void);

#endif
