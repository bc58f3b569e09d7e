/* See include/CPosix.h. */
#define _GNU_SOURCE
#include "CPosix.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int cposix_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int cposix_seal_shrink(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

int cposix_signalfd_block(const int *signals, int count) {
    sigset_t mask;
    sigemptyset(&mask);
    for (int i = 0; i < count; i++) sigaddset(&mask, signals[i]);
    int rc = pthread_sigmask(SIG_BLOCK, &mask, NULL);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cposix_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n;
    do {
        n = read(fd, &info, sizeof info);
    } while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (n < 0 && errno == EAGAIN) return 0;
    if (n >= 0) errno = EIO;
    return -1;
}

/* The bits are equal on Linux; mapped one by one all the same, as neither header promises it. */
static uint32_t epoll_bits(short events) {
    return (events & POLLIN ? EPOLLIN : 0) | (events & POLLOUT ? EPOLLOUT : 0);
}

static short poll_bits(uint32_t events) {
    return (short)((events & EPOLLIN ? POLLIN : 0) | (events & EPOLLOUT ? POLLOUT : 0) |
                   (events & EPOLLERR ? POLLERR : 0) | (events & EPOLLHUP ? POLLHUP : 0));
}

static int epoll_control(int epfd, int op, int fd, short events) {
    struct epoll_event event = { .events = epoll_bits(events), .data.fd = fd };
    return epoll_ctl(epfd, op, fd, &event);
}

int cposix_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int cposix_epoll_add(int epfd, int fd, short events) { return epoll_control(epfd, EPOLL_CTL_ADD, fd, events); }
int cposix_epoll_modify(int epfd, int fd, short events) { return epoll_control(epfd, EPOLL_CTL_MOD, fd, events); }
/* The event argument is ignored, but Linux before 2.6.9 wanted it non-null. */
int cposix_epoll_remove(int epfd, int fd) { return epoll_control(epfd, EPOLL_CTL_DEL, fd, 0); }

size_t cposix_epoll_event_size(void) { return sizeof(struct epoll_event); }

int cposix_epoll_wait(int epfd, void *events, int capacity, int timeout) {
    return epoll_wait(epfd, events, capacity, timeout);
}

int cposix_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int cposix_timerfd_arm(int fd, uint64_t deadline) {
    struct itimerspec spec = {
        .it_value = { .tv_sec = (time_t)(deadline / 1000000000u), .tv_nsec = (long)(deadline % 1000000000u) },
    };
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

short cposix_epoll_ready(const void *events, int index, int *fd) {
    const struct epoll_event *event = (const struct epoll_event *)events + index;
    *fd = event->data.fd;
    return poll_bits(event->events);
}

int cposix_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int cposix_spawn_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cposix_wait_exited(int status) { return WIFEXITED(status); }
int cposix_wait_exit_status(int status) { return WEXITSTATUS(status); }
int cposix_wait_signalled(int status) { return WIFSIGNALED(status); }
int cposix_wait_term_signal(int status) { return WTERMSIG(status); }

char **cposix_environ(void) { return environ; }
