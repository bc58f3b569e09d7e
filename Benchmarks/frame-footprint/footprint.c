/*
 * The memory a client's animated frame touches: reads a valgrind lackey trace
 * (`valgrind --tool=lackey --trace-mem=yes`) on stdin and counts, for each frame, the distinct
 * instructions' cache lines and pages (code) and the distinct cache lines and pages loaded or
 * stored (data), then prints their medians over the steady frames: a frame that did more (a timer
 * that fired, a late callback: under valgrind a frame takes tens of milliseconds) moves a mean.
 *
 * A frame starts each time the instruction at FRAME_ADDRESS runs (the client's frame-callback
 * handler) and lasts until the next one: the frame's work, its commit, the buffer release and
 * the waits in between. After 16 ms asleep, what a frame touches has mostly left the CPU's
 * caches: these counts are what a frame fetches again, and they follow a frame's time more
 * closely than its instructions do.
 *
 * Usage: footprint FRAME_ADDRESS [SKIP_FRAMES [MAX_FRAMES]] < trace
 * Output: one line, "frames N: I instructions, CL code lines on CP pages, DL data lines on DP pages"
 * Exit status: 0; 1 when fewer than one frame was counted (wrong address, or the client never
 * animated); 64 for a usage error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)

/* An open-addressing set of keys, emptied at each frame by moving to a new generation. */
static uint64_t keys[TABLE_SIZE];
static uint32_t generations[TABLE_SIZE];
static uint32_t generation = 1;
static unsigned filled;

/* The counts of every counted frame, one array per measure. */
enum { INSTRUCTIONS, CODE_LINES, CODE_PAGES, DATA_LINES, DATA_PAGES, MEASURES };
static double *counts[MEASURES];
static long capacity;

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of measure `m` over `n` frames (sorts its array). */
static double median(int m, long n) {
    qsort(counts[m], (size_t)n, sizeof(double), compare);
    return n % 2 ? counts[m][n / 2] : (counts[m][n / 2 - 1] + counts[m][n / 2]) / 2;
}

/* Adds `key` to this frame's set; 1 when it was not there yet. */
static int insert(uint64_t key) {
    if (filled >= TABLE_SIZE / 2) return 0; /* a frame this large is not a frame; stop counting */
    uint64_t slot = (key * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS);
    for (;;) {
        if (generations[slot] != generation) {
            generations[slot] = generation;
            keys[slot] = key;
            filled++;
            return 1;
        }
        if (keys[slot] == key) return 0;
        slot = (slot + 1) & (TABLE_SIZE - 1);
    }
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: footprint FRAME_ADDRESS [SKIP_FRAMES [MAX_FRAMES]] < lackey-trace\n");
        return 64;
    }
    char *end;
    uint64_t frameAddress = strtoull(argv[1], &end, 16);
    long skip = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
    long maximum = argc > 3 ? strtol(argv[3], NULL, 10) : 1000000;
    if (*end != '\0' || frameAddress == 0 || skip < 0 || maximum < 1) {
        fprintf(stderr, "footprint: FRAME_ADDRESS is a hexadecimal address, SKIP_FRAMES >= 0, MAX_FRAMES >= 1\n");
        return 64;
    }

    long frame = -1, counted = 0;
    /* This frame's counts. */
    uint64_t instructions = 0, codeLines = 0, codePages = 0, dataLines = 0, dataPages = 0;
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        /* Lackey's lines: "I  addr,size" for an instruction, " L addr,size", " S ...", " M ..." for data. */
        char *p = line;
        while (*p == ' ') p++;
        char kind = *p;
        if (kind != 'I' && kind != 'L' && kind != 'S' && kind != 'M') continue;
        p++;
        while (*p == ' ') p++;
        uint64_t address = strtoull(p, &end, 16);
        if (end == p || *end != ',') continue;
        int code = kind == 'I';
        if (code && address == frameAddress) {
            if (frame >= skip) {
                if (counted == capacity) {
                    capacity = capacity ? 2 * capacity : 256;
                    for (int m = 0; m < MEASURES; m++) {
                        counts[m] = realloc(counts[m], (size_t)capacity * sizeof(double));
                        if (!counts[m]) {
                            fprintf(stderr, "footprint: out of memory after %ld frames\n", counted);
                            return 1;
                        }
                    }
                }
                counts[INSTRUCTIONS][counted] = (double)instructions;
                counts[CODE_LINES][counted] = (double)codeLines;
                counts[CODE_PAGES][counted] = (double)codePages;
                counts[DATA_LINES][counted] = (double)dataLines;
                counts[DATA_PAGES][counted] = (double)dataPages;
                if (++counted >= maximum) break;
            }
            frame++;
            instructions = codeLines = codePages = dataLines = dataPages = 0;
            generation++;
            filled = 0;
        }
        if (frame < skip) continue;
        /* Keys: line or page number, doubled, plus 1 for code; pages marked apart from lines. */
        uint64_t lineKey = ((address >> 6) << 1 | (uint64_t)code) << 1;
        uint64_t pageKey = ((address >> 12) << 1 | (uint64_t)code) << 1 | 1;
        if (code) instructions++;
        if (insert(lineKey)) code ? codeLines++ : dataLines++;
        if (insert(pageKey)) code ? codePages++ : dataPages++;
    }
    if (counted < 1) {
        fprintf(stderr, "footprint: no complete frame after %ld skipped (the frame address %s ran %ld times)\n",
                skip, argv[1], frame + 1);
        return 1;
    }
    printf("frames %ld: %.0f instructions, %.0f code lines on %.1f pages, %.0f data lines on %.1f pages\n",
           counted, median(INSTRUCTIONS, counted), median(CODE_LINES, counted), median(CODE_PAGES, counted),
           median(DATA_LINES, counted), median(DATA_PAGES, counted));
    return 0;
}
