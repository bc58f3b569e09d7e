// The only file that talks to libjack (through CJack, which loads it at run time): the client,
// its ports and connections, and the trampoline from the process callback to a JackRenderer.
internal import CJack
import Posix

/// A JACK client with an audio output port and/or a MIDI output port, whose process callback runs
/// a ``JackRenderer``. Owned by the main thread; `close()` (or deinit) deactivates and closes it.
final class JackClient {
    /// Why JACK could not be used; `description` is the one line to print.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The library loaded: jack2's `libjack.so.0`, or PipeWire's under `pw-jack` (which puts its
    /// own first on the library path); `WLSLIDER_LIBJACK` names another (a test's missing one).
    static var library: String { environmentVariable("WLSLIDER_LIBJACK") ?? "libjack.so.0" }

    private var client: OpaquePointer?
    private var renderer: JackRenderer?
    /// The name the server gave the client.
    let name: String
    /// The eventfd JACK's shutdown callback writes to: readable once the server went away.
    let notifyDescriptor: Descriptor

    /// Loads libjack and opens a client called `name` on the running server (never starting one).
    init(name: String) throws(Failure) {
        var reason = [CChar](repeating: 0, count: 512)
        let library = Self.library
        guard cjack_load(library, &reason, reason.count) else {
            throw Failure(description: "cannot load \(library) (\(Self.text(reason))); install jackd2, or pipewire-jack and run wlslider under pw-jack")
        }
        var status: Int32 = 0
        guard let client = cjack_open(name, &status) else {
            throw Failure(description: Self.openFailure(status: status, name: name))
        }
        self.client = client
        self.name = String(cString: cjack_client_name(client))
        notifyDescriptor = Descriptor(cjack_notify_fd(client))
    }

    deinit { close() }

    /// Sample rate and period size now.
    var sampleRate: Int { client.map { Int(cjack_sample_rate($0)) } ?? 0 }
    var bufferSize: Int { client.map { Int(cjack_buffer_size($0)) } ?? 0 }

    /// Registers the `value` audio port, marked as a control signal (JACK metadata `signal-type`
    /// = `CV`), and/or the `midi` port. Returns false when the port could not be marked: the
    /// server keeps no metadata (PipeWire's JACK before the session manager has made its
    /// `default` metadata object, a jack2 built without it); the port works all the same.
    func registerPorts(audio: Bool, midi: Bool) throws(Failure) -> Bool {
        guard let client else { return true }
        var tagged = true
        if audio {
            guard cjack_register_output(client, "value", false) == 0 else { throw Failure(description: "cannot register the port \(name):value") }
            tagged = cjack_set_audio_signal_type(client, "CV") == 0
        }
        if midi {
            guard cjack_register_output(client, "midi", true) == 0 else { throw Failure(description: "cannot register the port \(name):midi") }
        }
        return tagged
    }

    /// Starts the process callback; from now on JACK's real-time thread runs `renderer.render`.
    func activate(_ renderer: JackRenderer) throws(Failure) {
        guard let client else { return }
        self.renderer = renderer
        let rc = cjack_activate(client, renderEntry, Unmanaged.passUnretained(renderer).toOpaque())
        guard rc == 0 else { throw Failure(description: "cannot activate the JACK client \(name) (jack_activate returned \(rc))") }
    }

    /// Connects our port of the right kind (audio or MIDI) to `destination`.
    func connect(to destination: String) throws(Failure) {
        guard let client else { return }
        let kind = cjack_port_kind(client, destination)
        guard kind >= 0 else { throw Failure(description: "--jack-connect \(destination): no such port (see jack_lsp)") }
        guard kind > 0, let source = cjack_port_name(client, kind == 2) else {
            let what = kind == 2 ? "a MIDI port; add --midi-cc NUMBER" : kind == 1 ? "an audio port; add --jack" : "neither audio nor MIDI"
            throw Failure(description: "--jack-connect \(destination): it is \(what)")
        }
        let rc = cjack_connect(client, source, destination)
        guard rc == 0 || rc == EEXISTValue else {
            throw Failure(description: "--jack-connect \(destination): cannot connect \(String(cString: source)) to it (jack_connect returned \(rc); is it an input?)")
        }
    }

    /// JACK's clock now (µs).
    static func jackTime() -> UInt64 { cjack_get_time() }

    /// The server's reason if it shut the client down, else nil.
    func shutdownReason() -> String? {
        guard let client else { return nil }
        var reason = [CChar](repeating: 0, count: 256)
        guard cjack_was_shut_down(client, &reason, reason.count) else { return nil }
        return Self.text(reason)
    }

    /// A NUL-terminated C buffer as text.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Xruns the server reported to this client.
    var xrunCount: UInt64 { client.map { cjack_xrun_count($0) } ?? 0 }

    /// Deactivates and closes the client; the render function is not called afterwards.
    func close() {
        guard let client else { return }
        cjack_close(client)
        self.client = nil
        renderer = nil
    }

    /// What jack_client_open's status bits (jack/types.h, JackStatus) say went wrong: only
    /// JackServerFailed means there is no server. A server that is there may refuse the client:
    /// jack2 answers JackServerError when the name is taken and too long (over 60 bytes) to take
    /// the "-01" it would add to make it unique.
    static func openFailure(status: Int32, name: String) -> String {
        let bits = UInt32(bitPattern: status)
        let code = "jack_client_open status \(statusText(status))"
        if bits & 0x10 != 0 {  // JackServerFailed
            return "no JACK server to connect to (\(code)); start jackd, or run wlslider under pw-jack with PipeWire running"
        }
        if bits & 0x400 != 0 {  // JackVersionError
            return "the JACK server speaks another protocol version than \(library) (\(code)); use the libjack that came with the server"
        }
        if bits & 0x20 != 0 {  // JackServerError
            let hint = name.utf8.count > 60
                ? "; if a client of that name is running already, the server cannot add -01 to a name of more than 60 bytes: give a shorter --jack-name"
                : ""
            return "the JACK server refused a client named \"\(name)\" (\(code))\(hint)"
        }
        return "cannot open a JACK client named \"\(name)\" (\(code))"
    }

    private static func statusText(_ status: Int32) -> String {
        "0x" + String(UInt32(bitPattern: status), radix: 16)
    }
}

/// EEXIST: jack_connect's answer for a connection that exists already.
private let EEXISTValue: Int32 = 17

/// The render function CJack's process callback calls: a JACK period as a `JackPeriod`, handed to
/// the renderer without retaining it (it lives as long as the client is active).
private let renderEntry: cjack_render_fn = { cycle, context in
    guard let cycle, let context else { return }
    let c = cycle.pointee
    let period = JackPeriod(
        frames: Int(c.frames), sampleRate: Double(c.sample_rate), firstFrame: c.first_frame,
        microseconds: c.has_times ? c.usecs : nil,
        audio: c.audio,
        midi: c.midi.map { MIDIEventBuffer(buffer: $0, write: midiWrite) },
        freewheeling: c.freewheeling)
    Unmanaged<JackRenderer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.render(period) }
}

private let midiWrite: MIDIEventBuffer.Write = { buffer, time, bytes, size in
    guard let buffer, let bytes else { return false }
    return cjack_midi_write(buffer, time, bytes, size)
}
