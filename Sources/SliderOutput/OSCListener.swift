import Posix

/// `--osc-listen [HOST:]PORT`: where OSC targets are received.
public struct OSCListenAddress: Equatable, Sendable {
    /// The local address to bind: a numeric address or a name; `0.0.0.0` (every IPv4 address)
    /// when none is given.
    public var host: String
    /// UDP port, 1…65535.
    public var port: UInt16

    /// Creates an address (not validated; use `parse` for user input).
    public init(host: String = "0.0.0.0", port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `HOST:PORT` or `[IPv6]:PORT`.
    public static func parse(_ text: String) throws(OutputOptionError) -> OSCListenAddress {
        func failure(_ why: String) -> OutputOptionError {
            OutputOptionError("--osc-listen: \"\(text)\": \(why) (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)")
        }
        var host = "0.0.0.0", portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw failure("an IPv6 address needs brackets and a port: [::1]:9000")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            guard !text[..<colon].contains(":") else { throw failure("put an IPv6 address in brackets: [::1]:9000") }
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw failure("empty host") }
        guard let port = UInt16(portText), port > 0 else { throw failure("\"\(portText)\" is not a port from 1 to 65535") }
        return OSCListenAddress(host: host, port: port)
    }
}

/// Receives OSC targets: messages to one address (the `--osc` address, default
/// `/wlslider/value`) with one float (`f`), double (`d`), int32 (`i`) or int64 (`h`) argument,
/// bare or inside bundles (whose timetags are not waited for: a target applies on arrival).
/// Messages to other addresses are none of its business and are skipped quietly (so are
/// wlslider's own `/phase` and `/touched` when it listens where it sends); a packet that is not
/// OSC, or a message to the address with other arguments, is reported, one line per packet.
public final class OSCListener {
    /// What one datagram brought.
    public enum Received: Equatable, Sendable {
        /// A target (the last one, when a bundle held several).
        case target(Double)
        /// Nothing for us.
        case nothing
        /// The line to print for a bad packet.
        case bad(String)
    }

    /// The address targets arrive on.
    public let address: String
    /// The bound address, numeric (`0.0.0.0:9000`).
    public let localAddress: String
    private let socket: UDPReceiver
    private let buffer: UnsafeMutableRawBufferPointer

    /// The largest datagram read whole; longer ones are bad packets.
    public static let maximumPacket = 65_536

    /// Binds the socket.
    public init(listen: OSCListenAddress, address: String) throws(SinkSetupError) {
        let resolved: SocketAddress
        switch SocketAddress.resolveUDP(host: listen.host, port: listen.port) {
        case .success(let a): resolved = a
        case .failure(let failure): throw SinkSetupError("--osc-listen: cannot resolve \"\(listen.host)\": \(failure.message)")
        }
        localAddress = resolved.numericText
        do throws(Errno) {
            socket = try UDPReceiver(boundTo: resolved)
        } catch {
            let hint = error == Errno.addressInUse ? "; is another wlslider or OSC program listening there?" : ""
            throw SinkSetupError("--osc-listen: " + error.error("bind UDP \(localAddress)").description + hint)
        }
        self.address = address
        buffer = .allocate(byteCount: Self.maximumPacket, alignment: 8)
    }

    deinit { buffer.deallocate() }

    /// The socket, to poll for POLLIN.
    public var pollDescriptor: Descriptor { socket.descriptor }

    /// Reads one waiting datagram; nil when none waits.
    public func receive() throws(SystemError) -> Received? {
        let got: (length: Int, truncated: Bool, sender: SocketAddress)?
        do throws(Errno) {
            got = try socket.receive(into: buffer)
        } catch {
            throw error.error("--osc-listen: receive on \(localAddress)")
        }
        guard let got else { return nil }
        if got.truncated {
            return .bad("osc-listen: ignored a packet from \(got.sender.numericText): longer than \(Self.maximumPacket) bytes")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<got.length])
        switch OSCPacketReader.targets(in: bytes, address: address) {
        case .success(let values):
            return values.last.map { .target($0) } ?? .nothing
        case .failure(let error):
            return .bad("osc-listen: ignored a packet from \(got.sender.numericText): \(error.reason)")
        }
    }
}

/// Why a packet was not OSC, or not a target.
struct OSCPacketError: Error, Equatable {
    let reason: String
}

/// Reads OSC 1.0 packets: messages and (nested) bundles. Pure.
enum OSCPacketReader {
    /// The targets in `bytes` for `address`, in order.
    static func targets(in bytes: UnsafeRawBufferPointer, address: String) -> Result<[Double], OSCPacketError> {
        var targets: [Double] = []
        do throws(OSCPacketError) {
            try read(bytes[...], address: address, depth: 0, into: &targets)
        } catch {
            return .failure(error)
        }
        return .success(targets)
    }

    private static func read(_ bytes: Slice<UnsafeRawBufferPointer>, address: String, depth: Int, into targets: inout [Double]) throws(OSCPacketError) {
        var cursor = Cursor(bytes: bytes)
        guard let first = bytes.first else { throw OSCPacketError(reason: "empty") }
        if first == UInt8(ascii: "#") {
            guard try cursor.string() == "#bundle" else { throw OSCPacketError(reason: "not an OSC message or bundle") }
            guard depth < 8 else { throw OSCPacketError(reason: "bundles nested more than 8 deep") }
            _ = try cursor.bytes(8)  // timetag: targets apply on arrival
            while !cursor.atEnd {
                let size = Int(try cursor.int32())
                guard size >= 0, size % 4 == 0 else { throw OSCPacketError(reason: "a bundle element of size \(size)") }
                try read(try cursor.bytes(size), address: address, depth: depth + 1, into: &targets)
            }
            return
        }
        guard first == UInt8(ascii: "/") else { throw OSCPacketError(reason: "not an OSC message or bundle") }
        let messageAddress = try cursor.string()
        guard messageAddress == address else { return }
        let tags = cursor.atEnd ? "," : try cursor.string()
        guard tags.hasPrefix(",") else { throw OSCPacketError(reason: "\(address) without a type tag string") }
        let types = tags.dropFirst()
        guard types.count == 1, let type = types.first else {
            throw OSCPacketError(reason: "\(address) needs one number argument, got type tags \"\(tags)\"")
        }
        let value: Double
        switch type {
        case "f": value = Double(Float(bitPattern: UInt32(bitPattern: try cursor.int32())))
        case "i": value = Double(try cursor.int32())
        case "d": value = Double(bitPattern: UInt64(bitPattern: try cursor.int64()))
        case "h": value = Double(try cursor.int64())
        default: throw OSCPacketError(reason: "\(address) needs a float, double or int argument, got type \"\(type)\"")
        }
        // The message ends with its argument: a stdin line "48 junk" is no number either.
        guard cursor.atEnd else { throw OSCPacketError(reason: "\(address): \(cursor.bytes.count) bytes after its argument") }
        guard value.isFinite else { throw OSCPacketError(reason: "\(address) \(value) is not a finite number") }
        targets.append(value)
    }

    /// Big-endian fields and padded strings, never reading past the end.
    private struct Cursor {
        var bytes: Slice<UnsafeRawBufferPointer>
        var atEnd: Bool { bytes.isEmpty }

        mutating func bytes(_ count: Int) throws(OSCPacketError) -> Slice<UnsafeRawBufferPointer> {
            guard count <= bytes.count else { throw OSCPacketError(reason: "cut short") }
            let start = bytes.startIndex
            defer { bytes = bytes[(start + count)...] }
            return bytes[start..<(start + count)]
        }

        mutating func string() throws(OSCPacketError) -> String {
            guard let nul = bytes.firstIndex(of: 0) else { throw OSCPacketError(reason: "a string without its terminating NUL") }
            let text = bytes[bytes.startIndex..<nul]
            guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { throw OSCPacketError(reason: "a string that is not printable ASCII") }
            let padded = (text.count / 4 + 1) * 4
            _ = try bytes(padded)
            return String(decoding: text, as: UTF8.self)
        }

        mutating func int32() throws(OSCPacketError) -> Int32 {
            let field = try bytes(4)
            return Int32(bitPattern: field.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }

        mutating func int64() throws(OSCPacketError) -> Int64 {
            let field = try bytes(8)
            return Int64(bitPattern: field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
    }
}
