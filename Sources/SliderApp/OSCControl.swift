import Posix
import SliderOutput

/// `--osc-listen`: targets from OSC messages, read in the poll loop and handed to
/// `ExternalTargets` exactly as stdin's numbers are. A bad packet is one line on stderr (up to
/// `reportLimit` of them; then one line saying the rest go unreported).
final class OSCControl {
    private let listener: OSCListener
    private let loop: EventLoop
    private let targets: ExternalTargets
    private var source: EventLoop.SourceToken?
    private var badPackets = 0
    /// Bad packets reported one by one; a flood after that costs no more stderr lines.
    static let reportLimit = 50
    /// Datagrams read per wake-up at most, so a flood cannot starve the slider.
    static let batch = 64

    init(listen: OSCListenAddress, address: String, loop: EventLoop, targets: ExternalTargets) throws(SinkSetupError) {
        listener = try OSCListener(listen: listen, address: address)
        self.loop = loop
        self.targets = targets
        source = loop.addSource(fd: listener.pollDescriptor.rawValue, events: .readable) { [unowned self] _ in self.readAvailable() }
    }

    private func readAvailable() {
        targets.coalescing { readBatch() }
    }

    private func readBatch() {
        for _ in 0..<Self.batch {
            let received: OSCListener.Received?
            do {
                received = try listener.receive()
            } catch {
                report("\(error); no longer listening for OSC")
                if let source { loop.removeSource(source) }
                source = nil
                return
            }
            switch received {
            case nil: return
            case .target(let value)?: targets.submit(.absolute(value), from: .osc)
            case .nothing?: break
            case .bad(let line)?: reportBad(line)
            }
        }
    }

    private func reportBad(_ line: String) {
        badPackets += 1
        if badPackets <= Self.reportLimit { report(line) }
        if badPackets == Self.reportLimit {
            report("osc-listen: \(Self.reportLimit) bad packets so far; further ones are ignored without a line")
        }
    }
}
