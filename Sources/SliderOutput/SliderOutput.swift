// SliderOutput: where wlslider's value stream goes, and how outside tools move the slider.
//
// Every type here is a non-blocking piece for the app's single-threaded poll loop: no threads, no
// sleeping (except bounded waits on the shutdown path), no clock of its own — times come in as
// arguments (seconds on the app's monotonic clock, `ValueSample.time`). System calls go
// through the Posix module.
//
// ## Sinks (one sample per frame in which the presented value changed, plus the initial value)
//
// | sink            | call per sample                         | poll                               | on readiness          |
// |-----------------|-----------------------------------------|------------------------------------|-----------------------|
// | stdout lines    | `formatter.line(for:range:)` → `sink.write(_:)` | fd 1, POLLOUT while `wantsWritable` | `sink.flush()`        |
// | OSC             | `osc.send(_:range:)`                    | socket, POLLOUT while `wantsWritable` | `osc.flush()`       |
// | exec hook       | `hook.submit(_:range:)`                 | `hook.pollDescriptor` (pidfd), POLLIN | `hook.reap()`       |
// | audio-rate      | nothing per sample: a 5–10 ms timer calls `audio.write(upTo: now)` | fd, POLLOUT while `wantsWritable` | `audio.write(upTo: now)` |
//
// After any call, print each of the sink's `takeWarnings()` on stderr (each distinct problem once).
// SIGPIPE must be ignored by the app (`signal(SIGPIPE, SIG_IGN)`): a closed reader then shows up as
// `WriteStatus.readerClosed` (EPIPE). For stdout the app exits 0 quietly when no other sink is
// active, otherwise it stops writing lines and carries on. With `--audio-out -`, stdout carries the
// samples and no value lines.
//
// ## Input from stdin
//
// fd 0 in the poll set for POLLIN; on readiness `reader.read()` (one read(2)), then for each
// `.line(text)` `StdinCommandParser.parse(text)`: `.success(command?)` to apply, `.failure(error)`
// to print `error.description` on stderr and change nothing; `.overlong(prefix:)` →
// `StdinCommandError.overlong(prefix:limit:)` likewise; `.endOfFile` → drop fd 0 from the poll set
// (and exit 0 with `--exit-on-eof`). The rule that a held gesture wins over an external target
// (applied when the gesture ends) belongs to the engine/app, not here.
//
// ## Nothing lost: the shutdown path (SIGTERM, SIGINT, `quit`, window close)
//
// 1. Take the final sample (value at now, current phase) and hand it to every sink as usual.
// 2. `stdoutSink.finish(timeoutMilliseconds:)` — waits (bounded) for a slow reader, restores fd 1.
// 3. `osc.flush()` — a datagram leaves whole or not at all; nothing partial to wait for.
// 4. `hook.finish(timeoutMilliseconds:)` — waits for the running child, runs the pending (final)
//    value, waits for it; a child still running after the timeout is left alone with a warning.
// 5. `audio.finish(at: now, timeoutMilliseconds:)` — writes up to now and closes the file.
// During normal running the same holds without a shutdown: the formatter, OSC and exec hook all
// keep the newest value (coalescing drops only intermediate ones), and the audio timer must keep
// running at least until the last glide has ended so its final value is in the stream.
