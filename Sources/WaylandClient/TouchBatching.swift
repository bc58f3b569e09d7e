// Pure batching of wl_touch events: buffer until `frame`, drop on `cancel`, and deliver at the last
// `up` because some compositors never send the `frame` after it.

/// Collects touch events into the batches the app receives.
///
/// - down/motion/up wait for `wl_touch.frame`, then go out together;
/// - `cancel` drops what is pending and delivers `[.cancel(.compositor)]`;
/// - when the last active touch point goes up, the batch goes out at once: some weston versions omit
///   the `frame` after the final `up` (https://gitlab.freedesktop.org/wayland/weston/-/issues/44),
///   mutter 43 too. A `frame` that then does arrive finds nothing pending and delivers nothing;
/// - motion and up of ids that never went down (here) are dropped.
struct TouchBatcher {
    private(set) var pending: [TouchEvent] = []
    /// Ids that went down and have not gone up.
    private(set) var activeIDs: Set<Int32> = []

    mutating func down(id: Int32, x: Double, y: Double, time: UInt32) {
        activeIDs.insert(id)
        pending.append(.down(id: id, x: x, y: y, time: time))
    }

    mutating func motion(id: Int32, x: Double, y: Double, time: UInt32) {
        guard activeIDs.contains(id) else { return }
        pending.append(.motion(id: id, x: x, y: y, time: time))
    }

    /// Returns the batch when this was the last active point (no frame needed), else nil.
    mutating func up(id: Int32, time: UInt32) -> [TouchEvent]? {
        guard activeIDs.remove(id) != nil else { return nil }
        pending.append(.up(id: id, time: time))
        return activeIDs.isEmpty ? takePending() : nil
    }

    /// `wl_touch.frame`: the pending batch, or nil when there is none.
    mutating func frame() -> [TouchEvent]? {
        takePending()
    }

    /// `wl_touch.cancel`: all points are gone; the pending batch is dropped.
    mutating func cancel() -> [TouchEvent] {
        pending.removeAll()
        activeIDs.removeAll()
        return [.cancel(.compositor)]
    }

    /// The touch device went away: a cancel when a gesture was in progress, else nil.
    mutating func deviceRemoved() -> [TouchEvent]? {
        let wasActive = !activeIDs.isEmpty || !pending.isEmpty
        pending.removeAll()
        activeIDs.removeAll()
        return wasActive ? [.cancel(.deviceRemoved)] : nil
    }

    private mutating func takePending() -> [TouchEvent]? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll() }
        return pending
    }
}
