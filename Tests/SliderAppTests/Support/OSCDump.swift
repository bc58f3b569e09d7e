// A real OSC receiver nobody here wrote: liblo's `oscdump` (Debian package liblo-tools).
import Glibc
import Testing

/// `oscdump -L PORT`, its stdout read line by line.
final class OSCDump {
    let port: UInt16
    private let process: WlsliderProcess

    /// One message as oscdump prints it: `<timetag> <address> <types> <arguments…>`.
    struct Message: Equatable, CustomStringConvertible {
        /// The bundle's NTP timetag as oscdump prints it (seconds.fraction in hex), or its
        /// "immediately" value for a bare message.
        let timetag: String
        let address: String
        let types: String
        let arguments: [String]
        var description: String { "\(timetag) \(address) \(types) \(arguments.joined(separator: " "))" }

        /// The NTP timetag as Unix seconds.
        var unixTime: Double? {
            let parts = timetag.split(separator: ".")
            guard parts.count == 2, let seconds = UInt32(parts[0], radix: 16), let fraction = UInt32(parts[1], radix: 16) else { return nil }
            return Double(seconds) - 2_208_988_800 + Double(fraction) / 4_294_967_296
        }
    }

    /// Starts oscdump and waits until it prints a probe sent to it.
    ///
    /// The port comes from below the kernel's ephemeral range (32768 and up): a port found free
    /// by binding port 0 can be handed as the local port of some other test's connected UDP
    /// socket before oscdump binds it, and oscdump then listens where the probes never arrive.
    /// Below that range only another receiver can collide; then oscdump fails or stays silent,
    /// and the next attempt takes another port.
    init() async throws {
        var failures: [String] = []
        for _ in 0..<5 {
            let port = UInt16.random(in: 20_000...32_000)
            let process = try WlsliderProcess(["-L", String(port)], environment: [:], executable: "oscdump")
            do {
                try await process.wait(for: "oscdump to listen on \(port)", timeout: .seconds(10)) {
                    sendProbe(to: port)
                    return process.stdoutLines.contains { $0.contains("/probe") } || process.exitCode != nil
                }
                if process.exitCode == nil {
                    self.port = port
                    self.process = process
                    return
                }
                failures.append(process.summary)
            } catch {
                failures.append("\(error)")
            }
        }
        throw WaitTimeout(description: "oscdump never listened:\n" + failures.joined(separator: "\n"))
    }

    deinit { process.signal(SIGTERM) }

    /// Every message received after the probes.
    var messages: [Message] {
        process.stdoutLines.filter { !$0.contains("/probe") }.compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 3 else { return nil }
            return Message(timetag: words[0], address: words[1], types: words[2], arguments: Array(words.dropFirst(3)))
        }
    }

    /// The `,f` values received at `address`, in order.
    func floats(at address: String) -> [Double] {
        messages.filter { $0.address == address && $0.types == "f" }.compactMap { $0.arguments.first.flatMap(Double.init) }
    }

    /// The `,s` strings received at `address`, in order, without their quotes.
    func strings(at address: String) -> [String] {
        messages.filter { $0.address == address && $0.types == "s" }.compactMap { $0.arguments.first?.trimming("\"") }
    }

    /// Waits until the messages satisfy `condition`.
    func wait(for what: String, _ condition: @escaping ([Message]) -> Bool) async throws {
        try await process.wait(for: what) { condition(messages) }
    }
}

/// An OSC message "/probe" with no arguments, sent by hand so the receiver is known to listen.
private func sendProbe(to port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var address = loopback(port: port)
    var packet: [UInt8] = Array("/probe".utf8) + [0, 0] + Array(",".utf8) + [0, 0, 0]
    withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = sendto(fd, &packet, packet.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
}

private func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    return address
}
