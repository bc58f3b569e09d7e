/* See include/CPosix.h. */
#define _GNU_SOURCE
#include "CPosix.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
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
