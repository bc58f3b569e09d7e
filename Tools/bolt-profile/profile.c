/*
 * The profile BOLT lays out wlslider's frame path by: reads a valgrind lackey trace
 * (`valgrind --tool=lackey`) of wlslider on stdin and counts how often each instruction of the
 * executable runs in its animated frames, from the SKIP+1-th time the instruction at
 * FRAME_ADDRESS runs (the frame-callback handler) to the end of the trace. Prints the counts in
 * BOLT's sample format ("no_lbr", then "1 FUNCTION OFFSET COUNT" lines, the offset in hex) for
 * every function of SYMBOLS (the output of `nm --defined-only`) that ran: exact counts, where a
 * sampling profile would guess.
 *
 * Local functions get BOLT's name for them, the symbol's name with "/1" appended.
 *
 * Usage: profile FRAME_ADDRESS SKIP_FRAMES LOAD_BASE SYMBOLS < trace > profile.fdata
 *   FRAME_ADDRESS and LOAD_BASE in hex as valgrind sees them (a position-independent executable
 *   is loaded at 0x108000 under valgrind on amd64).
 * Exit status: 0; 1 when no frame was counted or SYMBOLS cannot be read; 64 for a usage error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_BITS 18
#define TABLE_SIZE (1u << TABLE_BITS)

/* Instruction address → count, open addressing (a frame path runs some ten thousand). */
static uint64_t addresses[TABLE_SIZE];
static uint64_t counts[TABLE_SIZE];
static unsigned filled;

struct symbol {
    uint64_t address;
    char *name;
    int local;
};

static struct symbol *symbols;
static size_t symbolCount;

static int compareSymbols(const void *a, const void *b) {
    const struct symbol *x = a, *y = b;
    return (x->address > y->address) - (x->address < y->address);
}

/* The function containing `address` (relative to the executable), or NULL. */
static const struct symbol *containing(uint64_t address) {
    size_t low = 0, high = symbolCount;
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (symbols[middle].address <= address) low = middle + 1; else high = middle;
    }
    return low == 0 ? NULL : &symbols[low - 1];
}

static int readSymbols(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t capacity = 0;
    char line[8192];
    while (fgets(line, sizeof line, file)) {
        char type, name[8000];
        unsigned long long address;
        if (sscanf(line, "%llx %c %7999s", &address, &type, name) != 3) continue;
        if (!strchr("tTwW", type)) continue;
        if (symbolCount == capacity) {
            capacity = capacity ? capacity * 2 : 65536;
            symbols = realloc(symbols, capacity * sizeof *symbols);
            if (!symbols) return -1;
        }
        symbols[symbolCount++] = (struct symbol){address, strdup(name), type == 't'};
    }
    fclose(file);
    qsort(symbols, symbolCount, sizeof *symbols, compareSymbols);
    return symbolCount ? 0 : -1;
}

static void count(uint64_t address) {
    uint64_t slot = (address * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS);
    while (addresses[slot] && addresses[slot] != address) slot = (slot + 1) & (TABLE_SIZE - 1);
    if (!addresses[slot]) {
        if (filled >= TABLE_SIZE / 2) return; /* not a frame path any more; stop adding */
        addresses[slot] = address;
        filled++;
    }
    counts[slot]++;
}

int main(int argc, char **argv) {
    char *end1, *end2, *end3;
    if (argc != 5) {
        fprintf(stderr, "usage: profile FRAME_ADDRESS SKIP_FRAMES LOAD_BASE SYMBOLS < trace\n");
        return 64;
    }
    uint64_t frame = strtoull(argv[1], &end1, 16);
    long skip = strtol(argv[2], &end2, 10);
    uint64_t base = strtoull(argv[3], &end3, 16);
    if (*end1 || *end2 || *end3 || skip < 0) {
        fprintf(stderr, "profile: bad FRAME_ADDRESS, SKIP_FRAMES or LOAD_BASE\n");
        return 64;
    }
    if (readSymbols(argv[4]) != 0) {
        fprintf(stderr, "profile: no function symbols in %s\n", argv[4]);
        return 1;
    }
    long frames = 0;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        /* "I  0040A1B2,3": an instruction; data accesses start with a space. */
        if (line[0] != 'I') continue;
        uint64_t address = strtoull(line + 3, NULL, 16);
        if (address == frame) frames++;
        if (frames > skip) count(address);
    }
    if (frames <= skip) {
        fprintf(stderr, "profile: the instruction at %s ran %ld times, no frame after the first %ld\n",
                argv[1], frames, skip);
        return 1;
    }
    uint64_t last = symbols[symbolCount - 1].address;
    printf("no_lbr\n");
    for (unsigned slot = 0; slot < TABLE_SIZE; slot++) {
        if (!addresses[slot] || addresses[slot] < base || addresses[slot] - base > last) continue;
        uint64_t address = addresses[slot] - base;
        const struct symbol *symbol = containing(address);
        if (!symbol) continue;
        printf("1 %s%s %llx %llu\n", symbol->name, symbol->local ? "/1" : "",
               (unsigned long long)(address - symbol->address), (unsigned long long)counts[slot]);
    }
    return 0;
}
