/// A sink could not be set up (unresolvable host, unopenable file, empty command); `description` is
/// the one-line message. The app prints it and exits 1 (a system problem, not a usage error).
public struct SinkSetupError: Error, Equatable, CustomStringConvertible {
    /// The complete message, naming the sink and what failed.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Collects warnings for stderr and lets each distinct one through only once, so a receiver that
/// is down, or a hook that keeps failing, costs one line rather than one per frame.
struct WarningLog {
    private var seen: Set<String> = []
    private var queued: [String] = []

    /// Queues `message` unless a warning with the same `key` was queued before.
    mutating func once(key: String, _ message: @autoclosure () -> String) {
        guard seen.insert(key).inserted else { return }
        queued.append(message())
    }

    /// Whether any warning was queued since the last `take`.
    var hasQueued: Bool { !queued.isEmpty }

    /// The warnings queued since the last call.
    mutating func take() -> [String] {
        // Asked after every frame: nothing to hand over is the common case.
        guard !queued.isEmpty else { return [] }
        defer { queued.removeAll() }
        return queued
    }
}
