// The waits a test uses. Each has a timeout, and a timeout throws an error that says what was
// awaited and what the compositor saw instead.
import Synchronization

extension TestCompositor {
    /// Waits until `extract` returns a value for the compositor's state, and returns it.
    ///
    /// `extract` runs on the compositor's thread after every change; keep it quick and do not
    /// call the compositor from it.
    public func waitFor<T: Sendable>(
        _ description: String, timeout: Duration = .seconds(5), _ extract: @escaping @Sendable (CompositorState) -> T?
    ) async throws -> T {
        let id = waiterIDs.add(1, ordering: .relaxed).newValue
        let thread = self.thread
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let waiter = Waiters.Waiter(
                    description: description, timeout: timeout, deadline: .now + timeout,
                    poll: { state in
                        guard let value = extract(state) else { return false }
                        continuation.resume(returning: value)
                        return true
                    },
                    fail: { continuation.resume(throwing: $0) })
                let accepted = thread.enqueue { $0.waiters.add(id, waiter) }
                if !accepted { continuation.resume(throwing: TestCompositorError.stopped) }
            }
        } onCancel: {
            thread.enqueue { $0.waiters.cancel(id) }
        }
    }

    /// Waits until `predicate` holds for the compositor's state.
    public func waitUntil(
        _ description: String, timeout: Duration = .seconds(5), _ predicate: @escaping @Sendable (CompositorState) -> Bool
    ) async throws {
        _ = try await waitFor(description, timeout: timeout) { predicate($0) ? true : nil }
    }

    /// Waits for a client to connect (the first, or the one with process id `pid`).
    public func waitForClient(pid: Int32? = nil, timeout: Duration = .seconds(5)) async throws -> ClientID {
        try await waitFor(pid.map { "a client with pid \($0)" } ?? "a client to connect", timeout: timeout) { state in
            state.clients.values.filter { pid == nil || $0.pid == pid }.map(\.id).min()
        }
    }

    /// Waits for the first live surface with the given role (e.g. the client's toplevel).
    public func waitForSurface(role: SurfaceRole, of client: ClientID? = nil, timeout: Duration = .seconds(5)) async throws -> SurfaceID {
        try await waitFor("a surface with role \(role)", timeout: timeout) { state in
            state.surfaces(withRole: role).first { client == nil || $0.client == client }?.id
        }
    }

    /// Waits for a commit on `surface` made after this call (or after commit number `after`)
    /// that satisfies `predicate`, and returns it.
    public func waitForCommit(
        on surface: SurfaceID, after sequence: Int? = nil, timeout: Duration = .seconds(5),
        where predicate: @escaping @Sendable (Commit) -> Bool = { _ in true }
    ) async throws -> Commit {
        let after = try sequence ?? self.surface(surface).commitCount
        return try await waitFor("a commit on \(surface) after commit \(after)", timeout: timeout) { state in
            state.surfaces[surface]?.commits.first { $0.sequence > after && predicate($0) }
        }
    }

    /// Waits until the client acknowledged the configure with `serial` (or a later one).
    public func waitForAck(of serial: UInt32, on surface: SurfaceID, timeout: Duration = .seconds(5)) async throws {
        try await waitUntil("\(surface) to acknowledge configure \(serial)", timeout: timeout) { state in
            state.surfaces[surface]?.acks.contains { $0 >= serial } == true
        }
    }

    /// Waits until a launched process has written at least `count` complete lines to standard
    /// output, and returns them all.
    public func waitForOutputLines(of process: ProcessID, count: Int, timeout: Duration = .seconds(5)) async throws -> [String] {
        try await waitFor("\(count) lines of standard output from \(process)", timeout: timeout) { state in
            guard let lines = state.processes[process]?.standardOutputLines, lines.count >= count else { return nil }
            return lines
        }
    }

    /// Waits for a child process to exit and returns how it ended.
    public func waitForExit(_ process: ProcessID, timeout: Duration = .seconds(5)) async throws -> ExitStatus {
        try await waitFor("\(process) to exit", timeout: timeout) { $0.processes[process]?.exitStatus }
    }

    /// Waits until the client's connection is closed (it exited, or was disconnected).
    public func waitForDisconnect(_ client: ClientID, timeout: Duration = .seconds(5)) async throws {
        try await waitUntil("\(client) to disconnect", timeout: timeout) { $0.clients[client]?.isConnected == false }
    }

    /// Measures how many requests a client sends per second of real time (only those named
    /// `request`, e.g. `"wl_surface.commit"`, when given) over `duration`.
    public func requestRate(of client: ClientID, request: String? = nil, over duration: Duration = .milliseconds(500)) async throws -> Double {
        func count() throws -> Int {
            guard let c = state.clients[client] else { throw TestCompositorError.unknownClient(client) }
            return request.map { c.requests($0) } ?? c.requestCount
        }
        let clock = ContinuousClock()
        let before = try count(), start = clock.now
        try await Task.sleep(for: duration)
        let after = try count(), elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Double(after - before) / seconds
    }
}

private let waiterIDs = Atomic<Int>(0)
