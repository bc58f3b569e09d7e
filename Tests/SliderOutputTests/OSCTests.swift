import Glibc
import Posix
import Testing
@testable import SliderOutput

@Suite struct OSCDestinationTests {
    @Test(arguments: [
        ("127.0.0.1:57120/wlslider/value", OSCDestination(host: "127.0.0.1", port: 57120, address: "/wlslider/value")),
        ("localhost:9000/fader", OSCDestination(host: "localhost", port: 9000, address: "/fader")),
        ("[::1]:57120/x", OSCDestination(host: "::1", port: 57120, address: "/x")),
        ("synth.local:1", OSCDestination(host: "synth.local", port: 1, address: "/wlslider/value")),
    ])
    func validDestinations(text: String, expected: OSCDestination) throws {
        #expect(try OSCDestination.parse(text) == expected)
    }

    @Test(arguments: [
        ("127.0.0.1", "no port"), ("127.0.0.1:0/x", "is not a port"), ("127.0.0.1:65536/x", "is not a port"),
        (":57120/x", "empty host"), ("::1:57120/x", "brackets"), ("[::1/x", "brackets"), ("[]:5/x", "empty host"),
        ("h:5/a b", "may not contain"), ("h:5/a*", "may not contain"), ("h:5/", "is not an OSC address"),
        ("h:5/a//b", "is not an OSC address"), ("h:5//a", "is not an OSC address"), ("h:5/a/b//", "is not an OSC address"), ("h:port/x", "is not a port"),
    ])
    func invalidDestinationsSayWhy(text: String, fragment: String) {
        do {
            _ = try OSCDestination.parse(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.hasPrefix("--osc: \"\(text)\": "))
            #expect(error.description.contains(fragment), "\(error.description)")
            #expect(error.description.hasSuffix("(expected HOST:PORT/address, e.g. 127.0.0.1:57120/wlslider/value)"))
        }
    }

    @Test func packetLayoutFollowsOSC10() {
        var builder = OSCPacketBuilder()
        builder.appendMessage("/abc", float: 0.5)
        // "/abc" + NUL padding to 8, ",f" + 2 NULs, 0.5 as big-endian float32.
        #expect(builder.bytes == Array("/abc".utf8) + [0, 0, 0, 0] + Array(",f".utf8) + [0, 0, 0x3f, 0, 0, 0])
        #expect(NTPTimetag(unixTime: 0).seconds == 2_208_988_800)
        #expect(NTPTimetag(unixTime: 1.5).fraction == 0x8000_0000)
    }
}

/// A real OSC receiver nobody here wrote: liblo's `oscdump` (Debian package liblo-tools).
final class OSCDump {
    let port = freeUDPPort()
    let directory = makeTemporaryDirectory()
    let process: TestProcess
    var outputPath: String { directory + "/oscdump.txt" }

    init() {
        process = TestProcess(["oscdump", "-L", String(port)], outputPath: directory + "/oscdump.txt")
    }

    /// Sends a probe until oscdump prints it, so no test message is sent before it listens.
    func waitUntilListening() throws -> Bool {
        let probe = try OSCSender(destination: OSCDestination(host: "127.0.0.1", port: port, address: "/probe"))
        var value = 0.0
        return waitUntil(timeout: 5) {
            value += 1
            probe.send(ValueSample(time: 0, value: value, phase: .idle), range: SliderRange(min: 0, max: 1))
            usleep(20_000)
            return readText(outputPath).contains("/probe")
        }
    }

    /// oscdump's lines after the probes: `<timetag> <address> <types> <arguments>`.
    func lines(expecting count: Int) -> [String] {
        waitUntil(timeout: 5) { received().count >= count }
        return received()
    }

    private func received() -> [String] {
        readText(outputPath).split(separator: "\n").map(String.init).filter { !$0.contains("/probe") }
    }

    func stop() {
        process.stop()
        removeTree(directory)
    }
}

@Suite struct OSCSenderTests {
    let range = SliderRange(min: 0, max: 100)
    let gesture: [ValueSample] = [
        ValueSample(time: 0.0, value: 25, phase: .idle),
        ValueSample(time: 1.0, value: 25, phase: .began),
        ValueSample(time: 1.016, value: 30, phase: .moved),
        ValueSample(time: 1.033, value: 30, phase: .moved),
        ValueSample(time: 1.050, value: 42.5, phase: .ended),
    ]

    @Test func oscdumpReceivesValuesAndPhaseChanges() throws {
        let dump = OSCDump()
        defer { dump.stop() }
        #expect(try dump.waitUntilListening())
        let sender = try OSCSender(destination: OSCDestination.parse("127.0.0.1:\(dump.port)/wlslider/value"),
                                   mapping: OutputMapping(scale: OutputScale(lower: 0, upper: 1), curve: .linear))
        for sample in gesture { sender.send(sample, range: range) }
        let lines = dump.lines(expecting: 7).map { $0.split(separator: " ", maxSplits: 1)[1] }
        #expect(lines == [
            "/wlslider/value f 0.250000",
            "/wlslider/value/phase s \"idle\"",
            "/wlslider/value/phase s \"began\"",
            "/wlslider/value f 0.300000",
            "/wlslider/value/phase s \"moved\"",
            "/wlslider/value f 0.425000",
            "/wlslider/value/phase s \"ended\"",
        ])
        #expect(sender.takeWarnings() == [])
        #expect(!sender.wantsWritable)
    }

    /// Bundles carry the NTP time of each sample's frame; oscdump prints a bundle's timetag
    /// before each message in it. The start lies in the past so liblo dispatches at once.
    @Test func oscdumpReceivesBundlesWithTheFrameTimetags() throws {
        let dump = OSCDump()
        defer { dump.stop() }
        #expect(try dump.waitUntilListening())
        let start = wallClockNow() - 100.25
        let sender = try OSCSender(destination: OSCDestination.parse("localhost:\(dump.port)/fader"),
                                   timing: .timetagged(wallClockAtStart: start))
        for sample in gesture { sender.send(sample, range: range) }
        let lines = dump.lines(expecting: 7)
        #expect(lines.map { $0.split(separator: " ", maxSplits: 1)[1] } == [
            "/fader f 25.000000", "/fader/phase s \"idle\"", "/fader/phase s \"began\"", "/fader f 30.000000",
            "/fader/phase s \"moved\"", "/fader f 42.500000", "/fader/phase s \"ended\"",
        ])
        // oscdump prints the timetag as NTP seconds.fraction in hex; read it back as Unix time.
        let times = lines.map { line -> Double in
            let parts = line.split(separator: " ")[0].split(separator: ".")
            return Double(UInt32(parts[0], radix: 16)!) - 2_208_988_800 + Double(UInt32(parts[1], radix: 16)!) / 4_294_967_296
        }
        let expected = [0, 0, 1, 1.016, 1.016, 1.050, 1.050].map { start + $0 }
        for (time, wanted) in zip(times, expected) {
            #expect(abs(time - wanted) < 1e-6, "timetag \(time) vs frame time \(wanted)")
        }
    }

    @Test func missingReceiverIsReportedOnceAndNeverFatal() throws {
        let port = freeUDPPort()
        let sender = try OSCSender(destination: OSCDestination.parse("127.0.0.1:\(port)/x"))
        var warnings: [String] = []
        for index in 0..<20 {
            sender.send(ValueSample(time: 0, value: Double(index), phase: .moved), range: range)
            warnings += sender.takeWarnings()
            usleep(5_000)
        }
        #expect(warnings == ["osc: send to 127.0.0.1:\(port)/x: Connection refused (errno 111); is the receiver running? (reported once; sending goes on)"])
        #expect(!sender.wantsWritable)
    }

    @Test func resolvesIPv6AndNamesNumerically() throws {
        let sender = try OSCSender(destination: OSCDestination.parse("[::1]:5000/x"))
        #expect(sender.remoteAddress == "[::1]:5000")
        let named = try OSCSender(destination: OSCDestination.parse("localhost:5000/x"))
        #expect(named.remoteAddress == "127.0.0.1:5000" || named.remoteAddress == "[::1]:5000")
    }
}

/// `--osc-listen`'s packet reader against what a hostile or sloppy peer sends: every packet is
/// either the targets it holds or one reason, never a crash or a read past its end.
@Suite struct OSCPacketReaderTests {
    static let address = "/wlslider/value"

    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
    static func message(_ tags: String, _ arguments: [UInt8] = [], to address: String = address) -> [UInt8] {
        padded(Array(address.utf8)) + padded(Array(tags.utf8)) + arguments
    }
    static func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    static func float(_ value: Float) -> [UInt8] { be(value.bitPattern) }
    static func bundle(_ elements: [[UInt8]]) -> [UInt8] {
        Array("#bundle".utf8) + [0] + be(UInt64(1)) + elements.flatMap { be(Int32($0.count)) + $0 }
    }

    static func read(_ packet: [UInt8]) -> Result<[Double], OSCPacketError> {
        packet.withUnsafeBytes { OSCPacketReader.targets(in: $0, address: address) }
    }

    /// Numbers that are finite set the target as a stdin number would (the engine clamps them to
    /// the range); a denormal is a number too.
    @Test(arguments: [
        (message(",f", float(0.5)), 0.5),
        (message(",f", float(1e38)), Double(Float(1e38))),
        (message(",f", be(UInt32(1))), Double(Float(bitPattern: 1))),
        (message(",i", be(Int32.min)), Double(Int32.min)),
        (message(",d", be((42.5).bitPattern)), 42.5),
        (message(",h", be(Int64.max)), Double(Int64.max)),
        (bundle([message(",f", float(44))]), 44.0),
        (bundle([bundle([message(",f", float(45))])]), 45.0),
    ])
    func numbersAreTargets(packet: [UInt8], expected: Double) {
        #expect(Self.read(packet) == .success([expected]))
    }

    /// Other addresses are none of wlslider's business: no target and no complaint.
    @Test func otherAddressesAreSkippedQuietly() {
        #expect(Self.read(Self.message(",f", Self.float(9), to: "/other")) == .success([]))
        #expect(Self.read(Self.message(",i", Self.be(Int32(1)), to: "/wlslider/value/touched")) == .success([]))
    }

    /// Each bad packet has its reason; NaN and infinities are rejected as on stdin.
    static let badPackets: [([UInt8], String)] = {
        var packets: [([UInt8], String)] = []
        packets.append(([UInt8](), "empty"))
        packets.append((Array("hello".utf8), "not an OSC message or bundle"))
        packets.append((Array(address.utf8), "a string without its terminating NUL"))
        packets.append((padded(Array(address.utf8)) + padded(Array("f".utf8)) + float(30), "without a type tag string"))
        packets.append((Array(message(",f", float(30)).dropLast(2)), "cut short"))
        packets.append((padded(Array(address.utf8)) + Array(",f".utf8) + float(49), "cut short"))
        packets.append((message(",f", float(.nan)), "nan is not a finite number"))
        packets.append((message(",f", float(.infinity)), "inf is not a finite number"))
        packets.append((message(",f", float(-.infinity)), "-inf is not a finite number"))
        packets.append((message(",d", be(Double.infinity.bitPattern)), "inf is not a finite number"))
        packets.append((message(",s", padded(Array("50".utf8))), "needs a float, double or int argument, got type \"s\""))
        packets.append((message(",ff", float(1) + float(2)), "needs one number argument, got type tags \",ff\""))
        packets.append((message(","), "needs one number argument, got type tags \",\""))
        packets.append((padded(Array(address.utf8)), "needs one number argument, got type tags \",\""))
        packets.append((message(",f", float(48)) + Array("junk".utf8), "4 bytes after its argument"))
        packets.append((Array("#bundle".utf8) + [0], "cut short"))
        packets.append((Array("#bundle".utf8) + [0] + be(UInt64(1)) + be(Int32(4096)) + message(",f", float(46)), "cut short"))
        packets.append((Array("#bundle".utf8) + [0] + be(UInt64(1)) + be(Int32(-4)) + message(",f", float(46)), "a bundle element of size -4"))
        packets.append((padded(Array("/wlslider/välue".utf8)) + padded(Array(",f".utf8)) + float(3), "not printable ASCII"))
        return packets
    }()

    @Test(arguments: badPackets)
    func badPacketsSayWhy(packet: [UInt8], reason: String) {
        guard case .failure(let error) = Self.read(packet) else {
            Issue.record("accepted: \(Self.read(packet))")
            return
        }
        #expect(error.reason.hasSuffix(reason), "\(error.reason)")
    }

    /// Bundles nested deeper than 8 are refused (the reader recurses); a 64 KiB-ish packet of
    /// nesting costs nothing.
    @Test func deepNestingIsRefused() {
        var packet = Self.message(",f", Self.float(1))
        for _ in 0..<3000 { packet = Self.bundle([packet]) }
        guard case .failure(let error) = Self.read(packet) else { Issue.record("accepted"); return }
        #expect(error.reason == "bundles nested more than 8 deep")
    }
}

/// An OSC address so long that its packets exceed a UDP datagram is refused when parsed (every send
/// would fail with EMSGSIZE); the longest one accepted sends packets that arrive whole, as long
/// as `largestPacketSize` says. Timetagged bundles carry the address twice, so their limit is
/// about half the bare messages'.
@Suite struct OSCDatagramLimitTests {
    let range = SliderRange(min: 0, max: 100)

    /// The longest address `parse` accepts, and the text one byte longer.
    func longestAccepted(timetagged: Bool) throws -> (destination: OSCDestination, port: UInt16) {
        let port = freeUDPPort()
        func text(_ length: Int) -> String { "127.0.0.1:\(port)/" + String(repeating: "a", count: length - 1) }
        func accepted(_ length: Int) -> Bool { (try? OSCDestination.parse(text(length), timetagged: timetagged)) != nil }
        // Bisection: accepted(low), not accepted(high).
        var (low, high) = (2, OSCDestination.largestDatagram)
        #expect(accepted(low) && !accepted(high))
        while high - low > 1 {
            let middle = (low + high) / 2
            if accepted(middle) { low = middle } else { high = middle }
        }
        let length = low
        let refused = #expect(throws: OutputOptionError.self) { try OSCDestination.parse(text(length + 1), timetagged: timetagged) }
        #expect(refused?.description == "--osc: the OSC address is \(length + 1) bytes long: its "
                + (timetagged ? "bundles" : "messages") + " would not fit one UDP datagram (65507 bytes at most)")
        return (try OSCDestination.parse(text(length), timetagged: timetagged), port)
    }

    @Test(arguments: [false, true])
    func longestAcceptedAddressArrivesWhole(timetagged: Bool) throws {
        let (destination, port) = try longestAccepted(timetagged: timetagged)
        let size = destination.largestPacketSize(timetagged: timetagged)
        #expect(size <= OSCDestination.largestDatagram && size > OSCDestination.largestDatagram - 8)
        #expect(destination.address.utf8.count > (timetagged ? 32_000 : 65_000))
        let address = try SocketAddress.resolveUDP(host: "127.0.0.1", port: port).get()
        let receiver = try UDPReceiver(boundTo: address)
        let sender = try OSCSender(destination: destination, timing: timetagged ? .timetagged(wallClockAtStart: 0) : .immediate)
        // A value and the longest phase name: the largest packet of either timing.
        sender.send(ValueSample(time: 1, value: 42, phase: .cancelled), range: range)
        #expect(sender.takeWarnings() == [], "no EMSGSIZE")
        var sizes: [Int] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 8)
        defer { buffer.deallocate() }
        let deadline = monotonicNow() + 5
        while sizes.count < (timetagged ? 1 : 2) && monotonicNow() < deadline {
            if let datagram = try receiver.receive(into: buffer) {
                #expect(!datagram.truncated)
                sizes.append(datagram.length)
            } else {
                usleep(1_000)
            }
        }
        #expect(sizes.max() == size, "datagrams of \(sizes) bytes")
    }
}
