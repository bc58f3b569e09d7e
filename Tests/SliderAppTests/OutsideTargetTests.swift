// Targets from outside (issue 11): OSC in (--osc-listen), and following an outside source without
// fighting the finger (--settle, echoes, ADDRESS/touched).
import Foundation
import Glibc
import Synchronization
import TestCompositor
import Testing

/// Sends one UDP datagram to 127.0.0.1:`port`.
func sendDatagram(_ bytes: [UInt8], to port: UInt16) {
    sendDatagrams([bytes], to: port)
}

/// An OSC message with one argument, built by hand: `address`, `,tag`, the argument's bytes.
func oscMessage(_ address: String, _ tag: Character, _ argument: [UInt8]) -> [UInt8] {
    func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
    return padded(address) + padded(",\(tag)") + argument
}

func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
}

/// Starts wlslider with `--osc-listen 127.0.0.1:PORT` on a port below the ephemeral range that
/// nothing holds (another test's wlslider included). On a port in use wlslider exits 1 before it
/// shows a window, and the start would wait for that window until its patience ran out.
func startListening(_ arguments: [String], compositor: TestCompositor, jack: JackServer? = nil) async throws -> (WlsliderProcess, UInt16) {
    guard let port = (0..<100).lazy.map({ _ in UInt16.random(in: 20_000...32_000) }).first(where: udpPortIsFree) else {
        throw WaitTimeout(description: "no free UDP port for --osc-listen")
    }
    let args = arguments + ["--osc-listen", "127.0.0.1:\(port)"]
    let run = jack == nil ? try await compositor.startWlslider(args).0 : try await startJackWlslider(args, server: jack!, compositor: compositor)
    return (run, port)
}

/// Whether UDP `port` can be bound on every address now: a bind to the wildcard address fails
/// while any address holds the port.
func udpPortIsFree(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian, sin_addr: in_addr(s_addr: INADDR_ANY), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    return withUnsafeBytes(of: &address) { bytes in
        bind(fd, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count)) == 0
    }
}

@Suite struct OSCListenTests {
    /// An OSC float to /wlslider/value glides the slider there: on stdout and on the JACK port.
    @Test func anOSCTargetGlidesOnStdoutAndOnThePort() async throws {
        let server = try await JackServer()
        let directory = makeTemporaryDirectory("osc-in")
        defer { removeDirectory(directory) }
        let wav = directory + "/value.wav"
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, port) = try await startListening(["--jack", "--value", "25", "--scale-output", "0:1"], compositor: compositor, jack: server)
            // 4 s: the target goes out once the recorder's port is there, which on a busy machine
            // can be a second or more after it began recording.
            let recorder = try WlsliderProcess(["-f", wav, "-d", "4", "-b", "32", "wlslider:value"],
                                               environment: server.environment, executable: "jack_rec")
            try await server.waitForPort("jackrec:input1", of: recorder)
            sendDatagram(oscMessage("/wlslider/value", "f", bigEndian(Float(75).bitPattern)), to: port)
            let lines = try await run.waitForLastLine("0.75")
            #expect(numbers(lines).count > 5 && isAscending(numbers(lines), strictly: true), "not a glide: \(lines)")
            #expect(try await recorder.waitForExit() == 0)
            let samples = wavSamples(wav).drop { $0 == 0 }
            #expect(samples.first == 0.25 && samples.last.map { abs($0 - 0.75) < 1e-6 } == true)
            // The ease-in glide spends about 10 550 of its 12 000 samples strictly between 0.26
            // and 0.74; a step would spend none. jack_rec on a loaded machine can miss a period or
            // two of its recording, hence the margin.
            #expect(samples.filter { $0 > 0.26 && $0 < 0.74 }.count > 8_000, "no glide on the port")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }

    /// int32, double and int64 arguments work too, inside a bundle as well; messages to other
    /// addresses are none of wlslider's business; a packet that is not OSC and a message with a
    /// string are one line each, and change nothing.
    @Test func argumentTypesBundlesAndBadPackets() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, port) = try await startListening(["--value", "10", "--osc", "127.0.0.1:9/fader"], compositor: compositor)
            sendDatagram(oscMessage("/fader", "i", bigEndian(Int32(40))), to: port)
            try await run.waitForLastLine("40.00")
            sendDatagram(oscMessage("/fader", "d", bigEndian((55.5).bitPattern)), to: port)
            try await run.waitForLastLine("55.50")
            let inner = oscMessage("/fader", "h", bigEndian(Int64(70)))
            sendDatagram(Array("#bundle".utf8) + [0] + bigEndian(UInt64(1)) + bigEndian(Int32(inner.count)) + inner, to: port)
            try await run.waitForLastLine("70.00")
            sendDatagram(oscMessage("/elsewhere", "f", bigEndian(Float(1).bitPattern)), to: port)
            sendDatagram(Array("hello".utf8), to: port)
            sendDatagram(oscMessage("/fader", "s", Array("x\0\0\0".utf8)), to: port)
            // (--osc sends to a port nobody listens on: its one line is not about OSC in.)
            var lines: [String] { run.stderrLines.filter { !$0.hasPrefix("wlslider: osc: send") } }
            try await run.wait(for: "two lines about bad packets") { lines.count >= 2 }
            try await run.expectStillRunning(for: .milliseconds(300))
            #expect(lines.count == 2, "\(run.stderrText)")
            #expect(lines.first?.hasPrefix("wlslider: osc-listen: ignored a packet from 127.0.0.1:") == true)
            #expect(lines.first?.hasSuffix(": not an OSC message or bundle") == true, "\(lines)")
            #expect(lines.last?.hasSuffix(": /fader needs a float, double or int argument, got type \"s\"") == true, "\(lines)")
            #expect(run.stdoutLines.last == "70.00")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }
}

/// A hostile peer, a flood and a port taken (README "Failure behaviour").
@Suite struct OSCListenHostileTests {
    /// A second wlslider on the same port is told so (one line, exit 1) instead of binding it
    /// quietly beside the first (SO_REUSEADDR) and taking its datagrams.
    @Test func aPortInUseIsOneLineAndExit1() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (first, port) = try await startListening(["--value", "10"], compositor: compositor)
            for listen in ["127.0.0.1:\(port)", String(port)] {
                let second = try WlsliderProcess(["--osc-listen", listen], environment: compositor.environment)
                #expect(try await second.waitForExit() == 1)
                #expect(second.stderrLines == ["wlslider: --osc-listen: bind UDP \(listen.contains(":") ? "127.0.0.1" : "0.0.0.0"):\(port): "
                                               + "Address already in use (errno 98); is another wlslider or OSC program listening there?"],
                        "\(second.stderrText)")
            }
            // The first one still gets its targets.
            sendDatagram(oscMessage("/wlslider/value", "f", bigEndian(Float(30).bitPattern)), to: port)
            try await first.waitForLastLine("30.00")
            first.signal(SIGTERM)
            #expect(try await first.waitForExit() == 0)
        }
    }

    /// 10 000 packets in one go: the newest one is the target (the socket's buffer holds the
    /// burst; each wake-up applies its packets as one target), and the loop still answers stdin.
    @Test func aFloodEndsOnItsLastPacket() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, port) = try await startListening(["--value", "10", "--jump-duration", "0.05"], compositor: compositor)
            let packets = (0..<10_000).map { k in
                oscMessage("/wlslider/value", "f", bigEndian(Float(k == 9_999 ? 77 : 20 + Double(k % 50)).bitPattern))
            }
            sendDatagrams(packets, to: port)
            try await run.waitForLastLine("77.00", timeout: .seconds(10))
            try await run.expectStillRunning(for: .milliseconds(300))
            #expect(run.stdoutLines.last == "77.00", "a late packet of the flood came after the last one: \(run.stdoutLines.suffix(3))")
            run.send("20\n")
            try await run.waitForLastLine("20.00", timeout: .seconds(5))
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrText == "")
        }
    }

    /// A peer that sends every value straight back (with --osc to it and --osc-listen from it)
    /// does not hold the slider back: a target from stdin still glides all the way, because the
    /// values coming back are echoes of what wlslider sent.
    @Test func aPeerEchoingEveryValueDoesNotStopTheGlide() async throws {
        let peer = try EchoPeer()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, port) = try await startListening(["--value", "10", "--osc", "127.0.0.1:\(peer.port)/wlslider/value"],
                                                       compositor: compositor)
            peer.forward(to: port)
            run.send("90\n")
            try await run.waitForLastLine("90.00", timeout: .seconds(10))
            try await run.expectStillRunning(for: .milliseconds(300))
            #expect(run.stdoutLines.last == "90.00")
            #expect(peer.forwarded > 5, "the peer sent back \(peer.forwarded) values")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }
}

/// Sends datagrams to 127.0.0.1:`port` from one socket, as fast as the kernel takes them.
func sendDatagrams(_ packets: [[UInt8]], to port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { to in
            for packet in packets {
                _ = packet.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, to, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }
}

/// An OSC peer that sends every datagram it receives back to a port at once, on a thread of
/// its own (as DAWs with feedback and OSC mirrors do).
final class EchoPeer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private final class State: Sendable {
        let shared = Mutex<(target: UInt16?, forwarded: Int, stop: Bool)>((nil, 0, false))
    }
    private let state = State()
    private let thread: Thread

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { close(fd); throw WaitTimeout(description: "echo peer: bind failed, errno \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
        let state = state
        thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !state.shared.withLock({ $0.stop }) {
                let n = recv(fd, &buffer, buffer.count, 0)
                guard n > 0, let target = state.shared.withLock({ $0.target }) else { continue }
                sendDatagram(Array(buffer[0..<n]), to: target)
                state.shared.withLock { $0.forwarded += 1 }
            }
            close(fd)
        }
        thread.start()
    }

    deinit { state.shared.withLock { $0.stop = true } }

    /// From now on, everything received goes to 127.0.0.1:`port`.
    func forward(to port: UInt16) { state.shared.withLock { $0.target = port } }
    var forwarded: Int { state.shared.withLock { $0.forwarded } }
}

@Suite struct FingerWinsTests {
    /// Touch and hold: a stdin target waits; after the lift it waits the settle window too, then
    /// applies. `--osc` gets ADDRESS/touched 1 on touch-down and 0 on the lift.
    @Test func targetsWaitForTheGestureAndTheSettleWindow() async throws {
        let dump = try await OSCDump()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--format", "json", "--settle", "0.5",
                                                                      "--osc", "127.0.0.1:\(dump.port)/x"])
            try await touchReady(compositor, run)
            try compositor.touch.down(on: surface, x: 160, y: 24)
            try compositor.touch.frame()
            try await dump.wait(for: "touched 1") { $0.contains { $0.address == "/x/touched" } }
            run.send("90\n")
            try await Task.sleep(for: .milliseconds(400))
            #expect(!run.stdoutLines.contains { Self.value($0) == 90 }, "the target did not wait for the finger")
            try compositor.touch.up()
            try compositor.touch.frame()
            let lines = try await run.waitForLines("90 after the settle window") { $0.last.map { Self.value($0) == 90 } == true }
            let ended = try #require(lines.firstIndex { $0.contains("\"ended\"") })
            let endedTime = try #require(Self.time(lines[ended]))
            let rest = lines[ended...].map { (Self.time($0)!, Self.value($0)!) }
            let firstToward90 = try #require(rest.first { $0.1 > rest[0].1 + 0.5 })
            #expect(firstToward90.0 - endedTime >= 480, "applied \(firstToward90.0 - endedTime) ms after the lift")
            let touched = dump.messages.filter { $0.address == "/x/touched" }.map { $0.types + " " + $0.arguments.joined() }
            #expect(touched == ["i 1", "i 0"], "\(touched)")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// Outside a gesture, a value from stdin equal to one wlslider just sent is no echo: a script
    /// that comes back to a value it left a moment ago (10 → 90 → 10) gets it.
    @Test func stdinComingBackToAValueJustSentApplies() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, _) = try await compositor.startWlslider(["--value", "10", "--jump-duration", "0.05"])
            run.send("40\n")
            try await run.waitForLastLine("40.00")
            run.send("90\n")
            try await run.wait(for: "the glide away from 40") { run.stdoutLines.last.flatMap(Double.init).map { $0 > 40 } == true }
            run.send("40\n")
            try await run.waitForLastLine("40.00", timeout: .seconds(5))
            try await run.expectStillRunning(for: .milliseconds(300))
            #expect(run.stdoutLines.last == "40.00", "\(run.stdoutLines.suffix(4))")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    /// A value equal to one wlslider printed during the gesture, arriving in the settle window, is
    /// an echo: dropped, so the slider stays where the finger left it.
    @Test func anEchoOfASentValueIsDropped() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "10", "--settle", "0.5"])
            try await touchReady(compositor, run)
            try compositor.touch.down(on: surface, x: 160, y: 24)
            try compositor.touch.frame()
            try await run.wait(for: "the glide under the finger") { run.stdoutLines.count > 5 }
            let echo = try #require(run.stdoutLines.dropFirst().first)
            try compositor.touch.motion(x: 200, y: 24)
            try compositor.touch.frame()
            try compositor.touch.up()
            try compositor.touch.frame()
            run.send(echo + "\n")
            try await Task.sleep(for: .milliseconds(900))
            let last = try #require(run.stdoutLines.last)
            #expect(last != echo && Double(last)! > 60, "the echo \(echo) pulled the slider back: \(run.stdoutLines.suffix(4))")
            run.send("20\n")
            try await run.waitForLastLine("20.00")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
        }
    }

    private func touchReady(_ compositor: TestCompositor, _ run: WlsliderProcess) async throws {
        let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
        try await compositor.waitUntil("wlslider to take the touch device", timeout: patience) {
            $0.clients[client]?.requests("wl_seat.get_touch") ?? 0 > 0
        }
    }

    static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
    static func value(_ line: String) -> Double? { (object(line)?["value"] as? NSNumber)?.doubleValue }
    static func time(_ line: String) -> Double? { (object(line)?["t"] as? NSNumber)?.doubleValue }
}
