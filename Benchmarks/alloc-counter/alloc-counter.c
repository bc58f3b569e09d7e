/* Counts heap allocations of a process, for wlslider's benchmarks and its allocation test.
 *
 * LD_PRELOAD=alloc-counter.so ALLOC_COUNTER_FILE=PATH program...
 *
 * malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign are counted into PATH, a
 * small file shared by mmap that the measuring process reads whenever it likes (two uint64 at
 * offsets 0 and 8):
 *   total  every allocation;
 *   own    those whose caller is the program itself or the Swift runtime and libraries it links
 *          (the main executable, libswift*, libFoundation*): the allocations a program's own code
 *          makes, as opposed to libwayland's or libc's own.
 * The real allocator is glibc's, reached through its __libc_* entry points (no dlsym, which
 * itself allocates). Without ALLOC_COUNTER_FILE nothing is counted. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

struct counts {
    uint64_t total;
    uint64_t own;
};

static struct counts *counts;
enum { MAX_RANGES = 32 };
static uintptr_t range_start[MAX_RANGES], range_end[MAX_RANGES];
static int ranges;

static int is_own_library(const char *name) {
    if (name == NULL || name[0] == '\0') return 1; /* the main program */
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    return strncmp(base, "libswift", 8) == 0 || strncmp(base, "libFoundation", 13) == 0 ||
           strncmp(base, "lib_Foundation", 14) == 0 || strncmp(base, "libdispatch", 11) == 0 ||
           strncmp(base, "libBlocksRuntime", 16) == 0;
}

static int collect_range(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    if (!is_own_library(info->dlpi_name) || ranges == MAX_RANGES) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X) || ranges == MAX_RANGES) continue;
        range_start[ranges] = info->dlpi_addr + segment->p_vaddr;
        range_end[ranges] = range_start[ranges] + segment->p_memsz;
        ranges++;
    }
    return 0;
}

__attribute__((constructor)) static void start(void) {
    const char *path = getenv("ALLOC_COUNTER_FILE");
    if (path == NULL) return;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (ftruncate(fd, sizeof(struct counts)) == 0) {
        void *memory = mmap(NULL, sizeof(struct counts), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (memory != MAP_FAILED) counts = memory;
    }
    close(fd);
    dl_iterate_phdr(collect_range, NULL);
}

static inline void count(void *caller) {
    if (counts == NULL) return;
    __atomic_fetch_add(&counts->total, 1, __ATOMIC_RELAXED);
    uintptr_t address = (uintptr_t)caller;
    for (int i = 0; i < ranges; i++) {
        if (address >= range_start[i] && address < range_end[i]) {
            __atomic_fetch_add(&counts->own, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

void *malloc(size_t size) {
    count(__builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(__builtin_return_address(0));
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count(__builtin_return_address(0));
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(__builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(__builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count(__builtin_return_address(0));
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
