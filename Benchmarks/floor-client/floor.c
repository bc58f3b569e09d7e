/* The floor for wlslider's frame path: the least a frame-paced shm client can do.
 *
 * A 320x48 xdg_toplevel with two shm buffers in one memfd pool. On every frame callback it writes
 * one 48x48 square of the free buffer (a thumb that moves one pixel a frame), then attach,
 * damage_buffer of that square, frame, commit. No toolkit, no allocation of its own after start:
 * what it costs per frame is libwayland's and the kernel's, which any client pays.
 *
 * Built by scripts/bench: cc -O2 floor.c xdg-shell-protocol.c -lwayland-client.
 * Runs until SIGINT/SIGTERM (exit 0). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

enum { WIDTH = 320, HEIGHT = 48, SQUARE = 48, STRIDE = WIDTH * 4, SIZE = STRIDE * HEIGHT };

struct buffer {
    struct wl_buffer *proxy;
    uint32_t *pixels;
    int busy;
};

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static struct wl_surface *surface;
static struct buffer buffers[2];
static int configured, position;
static volatile sig_atomic_t running = 1;

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    (void)data;
    if (strcmp(interface, "wl_compositor") == 0) {
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, "wl_shm") == 0) {
        shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, "xdg_wm_base") == 0) {
        wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
    }
}
static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}
static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(base, serial);
}
static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void buffer_release(void *data, struct wl_buffer *proxy) {
    (void)proxy;
    ((struct buffer *)data)->busy = 0;
}
static const struct wl_buffer_listener buffer_listener = {buffer_release};

static void draw(void);

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
    (void)data; (void)time;
    wl_callback_destroy(callback);
    draw();
}
static const struct wl_callback_listener frame_listener = {frame_done};

/* One frame: the square at the new position into the free buffer, damage it, ask for the next frame. */
static void draw(void) {
    struct buffer *b = !buffers[0].busy ? &buffers[0] : !buffers[1].busy ? &buffers[1] : NULL;
    if (!b) return;
    position = (position + 1) % (WIDTH - SQUARE);
    for (int y = 0; y < SQUARE; y++) {
        uint32_t *row = b->pixels + y * WIDTH + position;
        for (int x = 0; x < SQUARE; x++) row[x] = 0xff000000u | (uint32_t)(x * 5) << 8 | (uint32_t)(y * 5);
    }
    wl_surface_attach(surface, b->proxy, 0, 0);
    wl_surface_damage_buffer(surface, position, 0, SQUARE, SQUARE);
    struct wl_callback *callback = wl_surface_frame(surface);
    wl_callback_add_listener(callback, &frame_listener, NULL);
    wl_surface_commit(surface);
    b->busy = 1;
}

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    (void)data;
    xdg_surface_ack_configure(xdg_surface, serial);
    if (!configured) {
        configured = 1;
        draw();
    }
}
static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h, struct wl_array *states) {
    (void)data; (void)toplevel; (void)w; (void)h; (void)states;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    (void)data; (void)toplevel;
    running = 0;
}
static void toplevel_bounds(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h) {
    (void)data; (void)toplevel; (void)w; (void)h;
}
static void toplevel_capabilities(void *data, struct xdg_toplevel *toplevel, struct wl_array *capabilities) {
    (void)data; (void)toplevel; (void)capabilities;
}
static const struct xdg_toplevel_listener toplevel_listener = {toplevel_configure, toplevel_close, toplevel_bounds,
                                                               toplevel_capabilities};

static void stop(int signal) {
    (void)signal;
    running = 0;
}

int main(void) {
    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "floor: cannot connect: %s\n", strerror(errno));
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !shm || !wm_base) {
        fprintf(stderr, "floor: missing wl_compositor, wl_shm or xdg_wm_base\n");
        return 1;
    }
    xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);

    int fd = memfd_create("floor", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, 2 * SIZE) < 0) return 1;
    uint8_t *memory = mmap(NULL, 2 * SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (memory == MAP_FAILED) return 1;
    memset(memory, 0x20, 2 * SIZE);
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, 2 * SIZE);
    for (int i = 0; i < 2; i++) {
        buffers[i].proxy = wl_shm_pool_create_buffer(pool, i * SIZE, WIDTH, HEIGHT, STRIDE, WL_SHM_FORMAT_ARGB8888);
        buffers[i].pixels = (uint32_t *)(memory + i * SIZE);
        wl_buffer_add_listener(buffers[i].proxy, &buffer_listener, &buffers[i]);
    }
    wl_shm_pool_destroy(pool);
    close(fd);

    surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
    struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
    xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
    xdg_toplevel_set_title(toplevel, "floor");
    wl_surface_commit(surface);

    while (running && wl_display_dispatch(display) != -1) {
    }
    wl_display_disconnect(display);
    return 0;
}
