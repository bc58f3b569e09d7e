// A human-readable account of the compositor's state, attached to every timeout so a failing
// wait says what the client did instead.

extension CompositorState {
    /// Clients, surfaces, processes, errors and the end of the protocol transcript, one per line.
    public var summary: String {
        var lines = ["virtual time \(time) ms, seat \(seatCapabilities), output scale \(outputScale)"]
        lines += clients.values.sorted { $0.id < $1.id }.map { c in
            let bound = c.boundGlobals.isEmpty ? "nothing" : c.boundGlobals.keys.sorted().joined(separator: " ")
            return "\(c.id) pid \(c.pid) \(c.isConnected ? "connected" : "disconnected"), \(c.requestCount) requests, bound \(bound)"
        }
        lines += surfaceList.map(Self.describe)
        lines += processes.values.sorted { $0.id < $1.id }.map { p in
            let tail = p.standardError.split(separator: "\n").suffix(3).joined(separator: " | ")
            return "\(p.id) pid \(p.pid) \(p.command.joined(separator: " ")): \(p.exitStatus?.description ?? "running")\(tail.isEmpty ? "" : "; stderr: \(tail)")"
        }
        lines += protocolErrors.map { "protocol error: \($0)" }
        lines += heldBufferWrites.map { "held buffer written: \($0)" }
        lines += ["last protocol messages:"] + protocolLog.suffix(15).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ s: SurfaceState) -> String {
        var text = "\(s.id) of \(s.client): \(s.role)\(s.isDestroyed ? " (destroyed)" : ""), \(s.commitCount) commits"
        if let c = s.lastConfigure { text += ", last configure \(c.size) serial \(c.serial) \(s.hasAckedLastConfigure ? "acked" : "not acked")" }
        if let b = s.lastBufferCommit?.buffer { text += ", last buffer \(b.width)×\(b.height) \(b.format)" }
        text += ", frame callbacks \(s.frameCallbacksPending) pending / \(s.frameCallbacksDone) done"
        return text
    }
}
