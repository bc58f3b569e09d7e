/* See include/CJack.h. */
#define _GNU_SOURCE
#include "CJack.h"

#include "CLoadLibrary.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* JACK's C ABI (jack/types.h, jack/jack.h, jack/midiport.h, jack/metadata.h of jack2 1.9). */
typedef struct _jack_client jack_client_t;
typedef struct _jack_port jack_port_t;
typedef uint32_t jack_nframes_t;
typedef uint64_t jack_time_t;
typedef uint64_t jack_uuid_t;
typedef int jack_status_t;
enum { JackNoStartServer = 0x01, JackPortIsOutput = 0x2 };
static const char audio_type[] = "32 bit float mono audio"; /* JACK_DEFAULT_AUDIO_TYPE */
static const char midi_type[] = "8 bit raw midi";           /* JACK_DEFAULT_MIDI_TYPE */
/* JACK_METADATA_SIGNAL_TYPE's value, for a libjack that does not export the variable. */
static const char signal_type_key[] = "http://jackaudio.org/metadata/signal-type";

static struct {
    void *handle;
    jack_client_t *(*client_open)(const char *, int, jack_status_t *, ...);
    int (*client_close)(jack_client_t *);
    char *(*get_client_name)(jack_client_t *);
    int (*activate)(jack_client_t *);
    int (*deactivate)(jack_client_t *);
    int (*set_process_callback)(jack_client_t *, int (*)(jack_nframes_t, void *), void *);
    void (*on_info_shutdown)(jack_client_t *, void (*)(jack_status_t, const char *, void *), void *);
    int (*set_xrun_callback)(jack_client_t *, int (*)(void *), void *);
    int (*set_freewheel_callback)(jack_client_t *, void (*)(int, void *), void *);
    jack_nframes_t (*get_sample_rate)(jack_client_t *);
    jack_nframes_t (*get_buffer_size)(jack_client_t *);
    jack_port_t *(*port_register)(jack_client_t *, const char *, const char *, unsigned long, unsigned long);
    void *(*port_get_buffer)(jack_port_t *, jack_nframes_t);
    const char *(*port_name)(const jack_port_t *);
    jack_uuid_t (*port_uuid)(const jack_port_t *);
    const char *(*port_type)(const jack_port_t *);
    jack_port_t *(*port_by_name)(jack_client_t *, const char *);
    int (*connect)(jack_client_t *, const char *, const char *);
    int (*get_cycle_times)(const jack_client_t *, jack_nframes_t *, jack_time_t *, jack_time_t *, float *);
    jack_time_t (*get_time)(void);
    void (*midi_clear_buffer)(void *);
    unsigned char *(*midi_event_reserve)(void *, jack_nframes_t, size_t);
    int (*set_property)(jack_client_t *, jack_uuid_t, const char *, const char *, const char *);
    void (*set_error_function)(void (*)(const char *));
    void (*set_info_function)(void (*)(const char *));
    const char **signal_type; /* JACK_METADATA_SIGNAL_TYPE, a variable; NULL when not exported */
} api;

struct cjack_client {
    jack_client_t *client;
    jack_port_t *audio;
    jack_port_t *midi;
    cjack_render_fn render;
    void *context;
    bool active;
    int notify_fd;
    atomic_bool shut_down;
    /* Set when closing starts: the render function is not called again (a close that does not
     * return in time leaves the client's threads to the process's end). */
    atomic_bool closing;
    atomic_uint_fast64_t xruns;
    atomic_bool freewheeling;
    char reason[256];
};

static void silent(const char *message) { (void)message; }

bool cjack_load(const char *library, char *reason, size_t reason_size)
{
    if (api.handle)
        return true;
    const struct wlslider_library_symbol symbols[] = {
        { "jack_client_open", (void **)&api.client_open },
        { "jack_client_close", (void **)&api.client_close },
        { "jack_get_client_name", (void **)&api.get_client_name },
        { "jack_activate", (void **)&api.activate },
        { "jack_deactivate", (void **)&api.deactivate },
        { "jack_set_process_callback", (void **)&api.set_process_callback },
        { "jack_on_info_shutdown", (void **)&api.on_info_shutdown },
        { "jack_set_xrun_callback", (void **)&api.set_xrun_callback },
        { "jack_set_freewheel_callback", (void **)&api.set_freewheel_callback },
        { "jack_get_sample_rate", (void **)&api.get_sample_rate },
        { "jack_get_buffer_size", (void **)&api.get_buffer_size },
        { "jack_port_register", (void **)&api.port_register },
        { "jack_port_get_buffer", (void **)&api.port_get_buffer },
        { "jack_port_name", (void **)&api.port_name },
        { "jack_port_uuid", (void **)&api.port_uuid },
        { "jack_port_type", (void **)&api.port_type },
        { "jack_port_by_name", (void **)&api.port_by_name },
        { "jack_connect", (void **)&api.connect },
        { "jack_get_cycle_times", (void **)&api.get_cycle_times },
        { "jack_get_time", (void **)&api.get_time },
        { "jack_midi_clear_buffer", (void **)&api.midi_clear_buffer },
        { "jack_midi_event_reserve", (void **)&api.midi_event_reserve },
        { "jack_set_property", (void **)&api.set_property },
        { "jack_set_error_function", (void **)&api.set_error_function },
        { "jack_set_info_function", (void **)&api.set_info_function },
    };
    if (!wlslider_load_library(&api.handle, library, symbols, sizeof symbols / sizeof symbols[0], reason, reason_size))
        return false;
    api.signal_type = (const char **)dlsym(api.handle, "JACK_METADATA_SIGNAL_TYPE");
    /* jack2 prints "Cannot connect to server socket …" and more on its own: wlslider says it in
     * one line instead. */
    api.set_error_function(silent);
    api.set_info_function(silent);
    return true;
}

static int process(jack_nframes_t frames, void *arg)
{
    struct cjack_client *c = arg;
    struct cjack_cycle cycle = { .frames = frames, .sample_rate = api.get_sample_rate(c->client) };
    jack_nframes_t first = 0;
    jack_time_t usecs = 0, next = 0;
    float period = 0;
    cycle.has_times = api.get_cycle_times(c->client, &first, &usecs, &next, &period) == 0;
    cycle.first_frame = first;
    cycle.usecs = usecs;
    cycle.next_usecs = next;
    cycle.freewheeling = atomic_load_explicit(&c->freewheeling, memory_order_relaxed);
    if (cycle.freewheeling) {
        /* jack2 feeds its cycle-time filter with freewheeling periods as if they were real time:
         * the times it gives then wander, so the clock itself (clock_gettime, which the vDSO answers
         * without a system call). */
        cycle.has_times = true;
        cycle.usecs = api.get_time();
    }
    if (c->audio)
        cycle.audio = api.port_get_buffer(c->audio, frames);
    if (c->midi) {
        cycle.midi = api.port_get_buffer(c->midi, frames);
        if (cycle.midi)
            api.midi_clear_buffer(cycle.midi);
    }
    if (c->render && !atomic_load_explicit(&c->closing, memory_order_acquire))
        c->render(&cycle, c->context);
    return 0;
}

/* On a JACK thread, as if in a signal handler: atomics, a bounded copy and write(2) only. */
static void shutdown_handler(jack_status_t code, const char *reason, void *arg)
{
    (void)code;
    struct cjack_client *c = arg;
    size_t n = 0;
    if (reason)
        for (; n + 1 < sizeof c->reason && reason[n]; n++)
            c->reason[n] = reason[n];
    c->reason[n] = '\0';
    atomic_store(&c->shut_down, true);
    uint64_t one = 1;
    ssize_t written = write(c->notify_fd, &one, sizeof one);
    (void)written;
}

/* On JACK's notification thread. */
static void freewheel_handler(int starting, void *arg)
{
    struct cjack_client *c = arg;
    atomic_store_explicit(&c->freewheeling, starting != 0, memory_order_relaxed);
}

static int xrun_handler(void *arg)
{
    struct cjack_client *c = arg;
    atomic_fetch_add_explicit(&c->xruns, 1, memory_order_relaxed);
    return 0;
}

struct cjack_client *cjack_open(const char *name, int *status)
{
    *status = 0;
    struct cjack_client *c = calloc(1, sizeof *c);
    if (!c) {
        *status = -1;
        return NULL;
    }
    c->notify_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    jack_status_t got = 0;
    c->client = c->notify_fd >= 0 ? api.client_open(name, JackNoStartServer, &got) : NULL;
    *status = got;
    if (!c->client) {
        if (c->notify_fd >= 0)
            close(c->notify_fd);
        free(c);
        return NULL;
    }
    atomic_init(&c->shut_down, false);
    atomic_init(&c->closing, false);
    atomic_init(&c->xruns, 0);
    atomic_init(&c->freewheeling, false);
    api.set_process_callback(c->client, process, c);
    api.on_info_shutdown(c->client, shutdown_handler, c);
    api.set_xrun_callback(c->client, xrun_handler, c);
    api.set_freewheel_callback(c->client, freewheel_handler, c);
    return c;
}

static void *close_client(void *argument)
{
    struct cjack_client *c = argument;
    if (c->active)
        api.deactivate(c->client);
    api.client_close(c->client);
    return NULL;
}

void cjack_close(struct cjack_client *c)
{
    if (!c)
        return;
    if (atomic_load(&c->shut_down)) {
        /* After the server shut the client down, jack2's jack_client_close can wait forever on a
         * lock its own notification thread keeps (jackaudio/jack2#395; reproduced here about one
         * time in six): the client is left as it is, its few threads asleep, until the process
         * ends. Nothing calls into it again, and the render function is not called any more. */
        return;
    }
    /* jack2's deactivate and close can block on the same notification lock with the server still
     * there (a loaded test run saw wlslider not exit within 30 s of SIGTERM): they run on a thread
     * of their own, waited for up to two seconds. A client that has not closed by then is left as
     * one the server shut down is, and wlslider goes on (to its exit, as a rule). */
    atomic_store_explicit(&c->closing, true, memory_order_release);
    pthread_t thread;
    if (pthread_create(&thread, NULL, close_client, c) != 0) {
        close_client(c);
    } else {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 2;
        if (pthread_timedjoin_np(thread, NULL, &deadline) != 0) {
            pthread_detach(thread);
            return;
        }
    }
    close(c->notify_fd);
    free(c);
}

const char *cjack_client_name(struct cjack_client *c) { return api.get_client_name(c->client); }
uint32_t cjack_sample_rate(struct cjack_client *c) { return api.get_sample_rate(c->client); }
uint32_t cjack_buffer_size(struct cjack_client *c) { return api.get_buffer_size(c->client); }

int cjack_register_output(struct cjack_client *c, const char *name, bool midi)
{
    jack_port_t **slot = midi ? &c->midi : &c->audio;
    if (*slot)
        return -1;
    *slot = api.port_register(c->client, name, midi ? midi_type : audio_type, JackPortIsOutput, 0);
    return *slot ? 0 : -1;
}

int cjack_set_audio_signal_type(struct cjack_client *c, const char *value)
{
    if (!c->audio)
        return -1;
    const char *key = api.signal_type && *api.signal_type ? *api.signal_type : signal_type_key;
    return api.set_property(c->client, api.port_uuid(c->audio), key, value, NULL);
}

const char *cjack_port_name(struct cjack_client *c, bool midi)
{
    jack_port_t *port = midi ? c->midi : c->audio;
    return port ? api.port_name(port) : NULL;
}

int cjack_port_kind(struct cjack_client *c, const char *port_name)
{
    jack_port_t *port = api.port_by_name(c->client, port_name);
    if (!port)
        return -1;
    const char *type = api.port_type(port);
    if (type && strcmp(type, audio_type) == 0)
        return 1;
    if (type && strcmp(type, midi_type) == 0)
        return 2;
    return 0;
}

int cjack_connect(struct cjack_client *c, const char *source, const char *destination)
{
    return api.connect(c->client, source, destination);
}

int cjack_activate(struct cjack_client *c, cjack_render_fn render, void *context)
{
    c->render = render;
    c->context = context;
    int rc = api.activate(c->client);
    c->active = rc == 0;
    return rc;
}

uint64_t cjack_get_time(void) { return api.get_time(); }

bool cjack_midi_write(void *midi_buffer, uint32_t time, const uint8_t *bytes, size_t size)
{
    unsigned char *slot = api.midi_event_reserve(midi_buffer, time, size);
    if (!slot)
        return false;
    memcpy(slot, bytes, size);
    return true;
}

int cjack_notify_fd(struct cjack_client *c) { return c->notify_fd; }

bool cjack_was_shut_down(struct cjack_client *c, char *reason, size_t reason_size)
{
    if (!atomic_load(&c->shut_down))
        return false;
    snprintf(reason, reason_size, "%s", c->reason);
    return true;
}

uint64_t cjack_xrun_count(struct cjack_client *c) { return atomic_load(&c->xruns); }
