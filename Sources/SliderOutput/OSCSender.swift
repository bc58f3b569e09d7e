import Posix

/// The OSC sink: one `,f` message per emitted value on the destination's address, and a `,s` message
/// with the phase name on `<address>/phase` whenever the phase changes (the first sample sends both).
/// `<address>/touched` gets `,i` 1 when a gesture takes hold of the slider and 0 when it lets go,
/// so a DAW can switch its automation to touch mode while a finger is on the fader.
/// With timetags, each sample becomes one bundle holding the value message, then the phase message
/// if any, stamped with the NTP time of the sample's frame.
///
/// Never fatal after setup: send errors (ECONNREFUSED while no receiver listens, ENETUNREACH, …)
/// become one warning per distinct errno, and sending goes on (the receiver may start later). A
/// refusal the kernel reports after the fact (an ICMP "port unreachable" leaves an error on the
/// socket, which poll shows as POLLERR until it is read) is read off the socket by `handle(_:)`.
/// A full socket buffer (EAGAIN) keeps the newest sample pending: `wantsWritable` turns true, and
/// `handle(.writable)` sends it, so the final value of a gesture is not lost to a momentary stall.
/// UDP itself may of course still drop it on the way.
public final class OSCSender {
    /// How messages are timed.
    public enum Timing: Equatable, Sendable {
        /// Bare messages, processed by the receiver on arrival.
        case immediate
        /// Bundles with the NTP timetag `wallClockAtStart + sample.time`, where `wallClockAtStart` is
        /// the Unix time (CLOCK_REALTIME, seconds) at which the monotonic sample time was 0.
        case timetagged(wallClockAtStart: Double)
    }

    /// Where messages go.
    public let destination: OSCDestination
    /// The resolved numeric address, e.g. `127.0.0.1:57120`.
    public let remoteAddress: String
    private let socket: UDPSocket

    private let mapping: OutputMapping
    private let timing: Timing
    private var packet = OSCPacketBuilder()
    private var deliveredValue: Float?
    private var deliveredPhase: GesturePhase?
    private var unsent: (sample: ValueSample, range: SliderRange)?
    /// A touch state that waits for socket buffer space.
    private var unsentTouch: Bool?
    private var warnings = WarningLog()

    /// Resolves the host (getaddrinfo: may block briefly for a name; do it at start-up) and opens a
    /// non-blocking UDP socket connected to it.
    public init(destination: OSCDestination, mapping: OutputMapping = .identity, timing: Timing = .immediate) throws(SinkSetupError) {
        let address: SocketAddress
        switch SocketAddress.resolveUDP(host: destination.host, port: destination.port) {
        case .success(let resolved): address = resolved
        case .failure(let failure):
            throw SinkSetupError("--osc: cannot resolve \"\(destination.host)\": \(failure.message)")
        }
        remoteAddress = address.numericText
        do throws(Errno) {
            socket = try UDPSocket(connectedTo: address)
        } catch {
            throw SinkSetupError("--osc: " + error.error("UDP socket to \(remoteAddress)").description)
        }
        self.destination = destination
        self.mapping = mapping
        self.timing = timing
    }

    /// The socket, to poll: for POLLOUT while `wantsWritable`, and always for POLLERR.
    public var pollDescriptor: Descriptor { socket.descriptor }

    /// True when a sample waits for socket buffer space: add POLLOUT to the poll set.
    public var wantsWritable: Bool { unsent != nil || unsentTouch != nil }

    /// Resolves what poll reported: POLLERR is an error the kernel left on the socket (a refused
    /// earlier datagram), read off it here and warned about once; POLLOUT sends what waits.
    public func handle(_ events: PollEvents) {
        if events.contains(.error), let error = socket.takePendingError() { warn(error) }
        flush()
    }

    /// Sends what changed since the last delivered sample (value and/or phase); nothing if neither did.
    public func send(_ sample: ValueSample, range: SliderRange) {
        unsent = (sample, range)
        flush()
    }

    /// Sends `<address>/touched` 1 (a gesture holds the slider) or 0 (it let go).
    public func sendTouched(_ touched: Bool) {
        unsentTouch = touched
        flush()
    }

    /// Retries the pending sample, if any. Call on POLLOUT, and before exit (SIGTERM: `send` the final
    /// sample, then `flush`); a datagram either leaves whole or not at all, so there is nothing partial to wait for.
    public func flush() {
        if let touched = unsentTouch {
            destination.build(touched: touched, into: &packet)
            guard transmit() else { return }
            unsentTouch = nil
        }
        guard let (sample, range) = unsent else { return }
        let value = Float(mapping.map(sample.value, range: range))
        let valueChanged = deliveredValue.map { $0.bitPattern != value.bitPattern } ?? true
        let phaseChanged = deliveredPhase != sample.phase
        guard valueChanged || phaseChanged else {
            unsent = nil
            return
        }
        switch timing {
        case .immediate:
            if valueChanged { guard sendValue(value) else { return } }
            if phaseChanged { guard sendPhase(sample.phase) else { return } }
        case .timetagged(let wallClockAtStart):
            let timetag = NTPTimetag(unixTime: wallClockAtStart + sample.time)
            guard sendBundle(timetag, value: valueChanged ? value : nil, phase: phaseChanged ? sample.phase : nil) else { return }
        }
        unsent = nil
    }

    /// Warnings (one line each) since the last call; print them on stderr.
    public func takeWarnings() -> [String] { warnings.take() }
    /// Whether `takeWarnings` has any to hand over (a cheap look, once a frame).
    public var hasWarnings: Bool { warnings.hasQueued }

    private func sendValue(_ value: Float) -> Bool {
        destination.build(value: value, into: &packet)
        guard transmit() else { return false }
        deliveredValue = value
        return true
    }

    private func sendPhase(_ phase: GesturePhase) -> Bool {
        destination.build(phase: phase, into: &packet)
        guard transmit() else { return false }
        deliveredPhase = phase
        return true
    }

    private func sendBundle(_ timetag: NTPTimetag, value: Float?, phase: GesturePhase?) -> Bool {
        destination.buildBundle(timetag, value: value, phase: phase, into: &packet)
        guard transmit() else { return false }
        if let value { deliveredValue = value }
        if let phase { deliveredPhase = phase }
        return true
    }

    /// Sends the built packet. False only when it should be retried later (EAGAIN); other errors
    /// drop the datagram (and count it delivered) after one warning per distinct errno.
    private func transmit() -> Bool {
        var result = send()
        if case .failure(.connectionRefused) = result {
            // The refusal belongs to an earlier datagram (ICMP port unreachable); this one was not
            // sent yet, so try it once more — the receiver may have started since.
            warn(.connectionRefused)
            result = send()
        }
        switch result {
        case .success: return true
        case .failure(.wouldBlock): return false
        case .failure(let error):
            warn(error)
            return true
        }
    }

    private func send() -> Result<Void, Errno> {
        packet.bytes.withUnsafeBytes { bytes in Result { () throws(Errno) in try socket.send(bytes) } }
    }

    private func warn(_ error: Errno) {
        let hint = error == .connectionRefused ? "; is the receiver running?" : ""
        warnings.once(key: "errno \(error.code)",
                      "osc: " + error.error("send to \(remoteAddress)\(destination.address)").description
                        + hint + " (reported once; sending goes on)")
    }
}
