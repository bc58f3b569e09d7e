// Waiting for something to happen. A waiter is a predicate on the compositor's state, evaluated
// on the server thread after every dispatch and every job, so a wait ends the moment its condition
// holds (no polling, no sleeps) or fails at its deadline with a summary of what did happen.

struct Waiters {
    struct Waiter: Sendable {
        let description: String
        let timeout: Duration
        let deadline: ContinuousClock.Instant
        /// Resumes the waiting task and returns true when the condition holds.
        let poll: @Sendable (CompositorState) -> Bool
        let fail: @Sendable (any Error) -> Void
    }
    private var pending: [Int: Waiter] = [:]
    /// Waits cancelled before their waiter arrived (a task cancelled before it started waiting).
    private var cancelledEarly: Set<Int> = []

    mutating func add(_ id: Int, _ waiter: Waiter) {
        if cancelledEarly.remove(id) != nil { return waiter.fail(CancellationError()) }
        pending[id] = waiter
    }

    /// Ends a wait whose task was cancelled, whether or not its waiter has arrived yet.
    mutating func cancel(_ id: Int) {
        if let waiter = pending.removeValue(forKey: id) {
            waiter.fail(CancellationError())
        } else {
            cancelledEarly.insert(id)
        }
    }

    /// The `wl_event_loop_dispatch` timeout that wakes the loop at the nearest deadline (-1: none).
    func millisecondsToNextDeadline() -> Int32 {
        guard let nearest = pending.values.map(\.deadline).min() else { return -1 }
        let left = ContinuousClock.now.duration(to: nearest)
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(0, ms))
    }

    /// Resolves the waiters whose condition holds; fails those past their deadline.
    mutating func settle(_ state: CompositorState) {
        let now = ContinuousClock.now
        for (id, waiter) in pending {
            if waiter.poll(state) {
                pending[id] = nil
            } else if now >= waiter.deadline {
                pending[id] = nil
                waiter.fail(TestCompositorError("test compositor: timed out after \(waiter.timeout) waiting for \(waiter.description)\n\(state.summary)"))
            }
        }
    }

    mutating func failAll(_ error: any Error) {
        for waiter in pending.values { waiter.fail(error) }
        pending.removeAll()
    }
}

extension Server {
    func settleWaiters() { waiters.settle(state) }
}
