/* libjack, loaded at run time: the calls wlslider's JACK client makes, through function pointers
 * filled by dlopen("libjack.so.0")/dlsym, so that wlslider has no link-time dependency on JACK and
 * costs nothing without --jack or --midi-cc. libjack.so.0 is jack2's (libjack-jackd2-0) or
 * PipeWire's (pipewire-jack, under pw-jack); both keep JACK's C ABI, which is declared here rather
 * than included, so that building wlslider needs no libjack-jackd2-dev.
 *
 * The process callback is this shim's: each period it reads the cycle times and the port buffers,
 * clears the MIDI buffer and hands all of it to the caller's render function in one struct, so the
 * real-time code on the Swift side makes no JACK call but cjack_midi_write. The shutdown, xrun and
 * freewheel callbacks are the shim's too: they only set atomics and write to an eventfd the main
 * loop polls.
 * Nothing here allocates, locks or logs once the client is active. */
#ifndef WLSLIDER_CJACK_H
#define WLSLIDER_CJACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One client with up to one audio output port and one MIDI output port. */
struct cjack_client;

/* What the shim's process callback hands the render function, each period. */
struct cjack_cycle {
    /* Frames in this period. */
    uint32_t frames;
    /* The graph's sample rate. */
    uint32_t sample_rate;
    /* jack_get_cycle_times: the frame counter at the period's first frame, the JACK clock (µs)
     * at its start and at the next period's start; valid when has_times. */
    uint32_t first_frame;
    bool has_times;
    uint64_t usecs;
    uint64_t next_usecs;
    /* The graph freewheels (jack_set_freewheel_callback): periods run back to back, as fast as
     * the clients compute them, and their frames have nothing to do with time. `usecs` is then
     * the JACK clock now (jack_get_time), not the cycle's start. */
    bool freewheeling;
    /* The audio port's buffer (frames floats), or NULL without that port. */
    float *audio;
    /* The MIDI port's buffer, already cleared, for cjack_midi_write; NULL without that port. */
    void *midi;
};

/* Called on JACK's real-time thread once per period. */
typedef void (*cjack_render_fn)(const struct cjack_cycle *cycle, void *context);

/* Loads libjack (`library`: "libjack.so.0") and resolves every function used. Returns true, or
 * false with dlerror's text in `reason`. Loading again after a success returns true at once.
 * libjack's own error and info messages are silenced: wlslider says what went wrong itself. */
bool cjack_load(const char *library, char *reason, size_t reason_size);

/* jack_client_open(name, JackNoStartServer): NULL with jack_client_open's status bits in `status`
 * when there is no server (or it refused); the client is not active yet. Registers the shim's
 * process, shutdown and xrun callbacks and opens the eventfd the callbacks write to. */
struct cjack_client *cjack_open(const char *name, int *status);
/* Deactivates (if active), closes the client and frees it; the render function is not called
 * from the moment it starts. After the server shut the client down, or when closing has not
 * finished within 2 s (jack2's close can hang on its notification lock), the client is left
 * alone instead; it is not used again. */
void cjack_close(struct cjack_client *client);

/* The name the server gave the client (it appends -01, -02 … when the name is taken). */
const char *cjack_client_name(struct cjack_client *client);
/* The graph's sample rate and period size now. */
uint32_t cjack_sample_rate(struct cjack_client *client);
uint32_t cjack_buffer_size(struct cjack_client *client);

/* Registers the output port `name`: a 32-bit float audio port (midi false) or a MIDI port. One of
 * each at most. Returns 0, or -1 when JACK refused. */
int cjack_register_output(struct cjack_client *client, const char *name, bool midi);
/* Sets the audio port's JACK metadata `signal-type` (JACK_METADATA_SIGNAL_TYPE) to `value` ("CV").
 * Returns jack_set_property's result (0 on success; -1 without the audio port). */
int cjack_set_audio_signal_type(struct cjack_client *client, const char *value);
/* The full name ("client:port") of the audio (midi false) or MIDI port; NULL when not registered. */
const char *cjack_port_name(struct cjack_client *client, bool midi);
/* The type of the port named `port_name` in the graph: 1 audio, 2 MIDI, 0 other, -1 no such port. */
int cjack_port_kind(struct cjack_client *client, const char *port_name);
/* jack_connect(source, destination): 0, or EEXIST when already connected, or another non-zero. */
int cjack_connect(struct cjack_client *client, const char *source, const char *destination);

/* Installs the render function (before cjack_activate) and activates the client. Returns 0 or
 * jack_activate's error. */
int cjack_activate(struct cjack_client *client, cjack_render_fn render, void *context);

/* JACK's clock (µs): the clock the cycle times are on. jack2 reads CLOCK_MONOTONIC_RAW, PipeWire
 * CLOCK_MONOTONIC: the caller relates it to its own clock rather than assume either. */
uint64_t cjack_get_time(void);

/* Writes one MIDI event of `size` bytes at frame `time` of the period (times must not decrease)
 * into a buffer from struct cjack_cycle. Returns false when the buffer is full. Real-time safe. */
bool cjack_midi_write(void *midi_buffer, uint32_t time, const uint8_t *bytes, size_t size);

/* The eventfd the shutdown callback writes to (non-blocking, close-on-exec; owned by the client). */
int cjack_notify_fd(struct cjack_client *client);
/* True once the server shut the client down; `reason` then gets the server's reason. */
bool cjack_was_shut_down(struct cjack_client *client, char *reason, size_t reason_size);
/* How many xruns the server reported to this client so far. */
uint64_t cjack_xrun_count(struct cjack_client *client);

#endif
