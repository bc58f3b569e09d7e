/// `--osc HOST:PORT/address`: where OSC messages go.
///
/// Forms: `127.0.0.1:57120/wlslider/value`, `localhost:9000/fader`, `[::1]:57120/x` (IPv6 in
/// brackets). Without `/address` the address is `/wlslider/value`. Phase messages go to
/// `<address>/phase`.
public struct OSCDestination: Equatable, Sendable {
    /// Host name or numeric address, without brackets.
    public var host: String
    /// UDP port, 1…65535.
    public var port: UInt16
    /// The OSC address of value messages; starts with `/`.
    public var address: String

    /// The address used when `--osc` gives none.
    public static let defaultAddress = "/wlslider/value"

    /// The OSC address of phase messages.
    public var phaseAddress: String { address + "/phase" }

    /// The OSC address of touch messages (1 on touch-down, 0 on lift).
    public var touchedAddress: String { address + "/touched" }

    /// Creates a destination (not validated; use `parse` for user input).
    public init(host: String, port: UInt16, address: String) {
        self.host = host
        self.port = port
        self.address = address
    }

    /// Parses `HOST:PORT[/address]`; the error message quotes the text and shows an example. An
    /// address too long for its packets (bundles, when `timetagged`) to fit a UDP datagram is an error.
    public static func parse(_ text: String, timetagged: Bool = false) throws(OutputOptionError) -> OSCDestination {
        func failure(_ why: String) -> OutputOptionError {
            OutputOptionError("--osc: \"\(text)\": \(why) (expected HOST:PORT/address, e.g. 127.0.0.1:57120/wlslider/value)")
        }
        let slash = text.firstIndex(of: "/")
        let hostPort = slash.map { text[..<$0] } ?? text[...]
        let address = slash.map { String(text[$0...]) } ?? defaultAddress
        let (host, portText) = try splitHostPort(hostPort, failure: failure)
        guard let port = UInt16(portText), port > 0 else { throw failure("\"\(portText)\" is not a port from 1 to 65535") }
        if let bad = address.unicodeScalars.first(where: { !isAllowedInOSCAddress($0) }) {
            throw failure("the OSC address may not contain \"\(bad.escaped(asASCII: true))\"")
        }
        // Two slashes in a row, byte by byte (see ExecTemplate.containsPlaceholder).
        let emptyPart = zip(address.utf8, address.utf8.dropFirst()).contains { $0 == UInt8(ascii: "/") && $1 == $0 }
        guard address.count > 1, !address.hasSuffix("/"), !emptyPart else {
            throw failure("\"\(address)\" is not an OSC address like /wlslider/value")
        }
        let destination = OSCDestination(host: host, port: port, address: address)
        // Every send would fail with EMSGSIZE. The text is not quoted: it is tens of kilobytes.
        guard destination.largestPacketSize(timetagged: timetagged) <= largestDatagram else {
            throw OutputOptionError("--osc: the OSC address is \(address.utf8.count) bytes long: its "
                                    + (timetagged ? "bundles" : "messages") + " would not fit one UDP datagram ("
                                    + "\(largestDatagram) bytes at most)")
        }
        return destination
    }

    /// The most a UDP datagram carries over IPv4: 65535 bytes less the IP and UDP headers.
    static let largestDatagram = 65_507

    /// The size of the longest packet sent to this destination: the touched message, and the
    /// value and phase messages (with the longest phase name) each alone or, `timetagged`, as one
    /// bundle. Measured by building them as the sender does.
    func largestPacketSize(timetagged: Bool) -> Int {
        let longestPhase = GesturePhase.allCases.max { $0.rawValue.utf8.count < $1.rawValue.utf8.count }
        var packet = OSCPacketBuilder()
        func size(_ build: (inout OSCPacketBuilder) -> Void) -> Int {
            build(&packet)
            return packet.bytes.count
        }
        let touched = size { build(touched: true, into: &$0) }
        guard timetagged else {
            return max(touched, size { build(value: 0, into: &$0) }, size { build(phase: longestPhase ?? .idle, into: &$0) })
        }
        return max(touched, size { buildBundle(NTPTimetag(seconds: 0, fraction: 0), value: 0, phase: longestPhase, into: &$0) })
    }

    // MARK: The packets (each replaces what `packet` held)

    /// `<address>/touched` with `,i` 1 (a gesture holds the slider) or 0.
    func build(touched: Bool, into packet: inout OSCPacketBuilder) {
        packet.reset()
        packet.appendMessage(touchedAddress, int: touched ? 1 : 0)
    }

    /// The value message: `<address>` with `,f`.
    func build(value: Float, into packet: inout OSCPacketBuilder) {
        packet.reset()
        packet.appendMessage(address, float: value)
    }

    /// The phase message: `<address>/phase` with the phase name.
    func build(phase: GesturePhase, into packet: inout OSCPacketBuilder) {
        packet.reset()
        packet.appendMessage(phaseAddress, string: phase.rawValue)
    }

    /// A bundle stamped `timetag` holding the value message, then the phase message, each if given.
    func buildBundle(_ timetag: NTPTimetag, value: Float?, phase: GesturePhase?, into packet: inout OSCPacketBuilder) {
        packet.reset()
        packet.beginBundle(timetag)
        if let value {
            packet.beginElement()
            packet.appendMessage(address, float: value)
            packet.endElement()
        }
        if let phase {
            packet.beginElement()
            packet.appendMessage(phaseAddress, string: phase.rawValue)
            packet.endElement()
        }
    }

    private static func splitHostPort(
        _ text: Substring, failure: (String) -> OutputOptionError
    ) throws(OutputOptionError) -> (String, Substring) {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw failure("an IPv6 address needs brackets and a port: [::1]:57120")
            }
            let host = text[text.index(after: text.startIndex)..<close]
            guard !host.isEmpty else { throw failure("empty host") }
            return (String(host), text[text.index(close, offsetBy: 2)...])
        }
        guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
            throw failure(text.contains(":") ? "put an IPv6 address in brackets: [::1]:57120" : "no port")
        }
        guard colon != text.startIndex else { throw failure("empty host") }
        return (String(text[..<colon]), text[text.index(after: colon)...])
    }

    /// OSC 1.0 address characters: printable ASCII except space and the pattern/type characters.
    private static func isAllowedInOSCAddress(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value < 0x7f && !" #*,?[]{}".unicodeScalars.contains(scalar)
    }
}
