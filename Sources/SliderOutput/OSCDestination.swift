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
        guard address.count > 1, !address.hasSuffix("/"), !address.contains("//") else {
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
    /// value and phase messages (with the longest phase name) each alone or, `timetagged`, as one bundle.
    func largestPacketSize(timetagged: Bool) -> Int {
        let longestPhase = GesturePhase.allCases.max { $0.rawValue.utf8.count < $1.rawValue.utf8.count }?.rawValue ?? ""
        func size(_ build: (inout OSCPacketBuilder) -> Void) -> Int {
            var packet = OSCPacketBuilder()
            build(&packet)
            return packet.bytes.count
        }
        let touched = size { $0.appendMessage(touchedAddress, int: 1) }
        guard timetagged else {
            return max(touched, size { $0.appendMessage(address, float: 0) },
                       size { $0.appendMessage(phaseAddress, string: longestPhase) })
        }
        return max(touched, size {
            $0.beginBundle(NTPTimetag(seconds: 0, fraction: 0))
            $0.beginElement()
            $0.appendMessage(address, float: 0)
            $0.endElement()
            $0.beginElement()
            $0.appendMessage(phaseAddress, string: longestPhase)
            $0.endElement()
        })
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
