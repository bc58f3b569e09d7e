// The single-threaded poll(2) loop: the display fd, stdin, signals, key-repeat timers and the app's own
// sources all wait in one place. Nothing wakes up unless an fd is ready or a timer the app set is due,
// so an idle slider sleeps in poll with no timeout.
internal import CWaylandClient
internal import Glibc

/// A point on `CLOCK_MONOTONIC`, in nanoseconds.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an unspecified start (boot).
    public var nanoseconds: UInt64

    /// Creates an instant from a nanosecond count.
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The current time on `CLOCK_MONOTONIC`.
    public static func now() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }

    /// This instant moved by `nanoseconds` (negative moves back, never below 0).
    public func advanced(byNanoseconds delta: Int64) -> MonotonicInstant {
        if delta >= 0 { return MonotonicInstant(nanoseconds: nanoseconds &+ UInt64(delta)) }
        let back = UInt64(-delta)
        return MonotonicInstant(nanoseconds: back > nanoseconds ? 0 : nanoseconds - back)
    }

    /// This instant moved forward by `milliseconds`.
    public func advanced(byMilliseconds milliseconds: Double) -> MonotonicInstant {
        advanced(byNanoseconds: Int64((milliseconds * 1_000_000).rounded()))
    }

    /// Earlier-than.
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

/// A single-threaded `poll(2)` loop. Sources are file descriptors with a handler; timers are one-shot
/// deadlines that bound the poll timeout. With no timer set, `poll` blocks without a timeout.
///
/// Handlers may throw: `run()` stops and rethrows the first error (after letting the Wayland connection
/// finish its read, so the display stays consistent). Not thread-safe: use it from one thread.
public final class EventLoop {
    /// Readiness bits, as in `pollfd.events` / `revents`.
    public struct Events: OptionSet, Hashable, Sendable {
        /// The `poll(2)` bits.
        public let rawValue: Int16
        /// Wraps `poll(2)` bits.
        public init(rawValue: Int16) { self.rawValue = rawValue }
        /// Data can be read (`POLLIN`).
        public static let readable = Events(rawValue: Int16(POLLIN))
        /// Data can be written without blocking (`POLLOUT`).
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// An error condition (`POLLERR`; reported even if not asked for).
        public static let error = Events(rawValue: Int16(POLLERR))
        /// The peer hung up (`POLLHUP`; reported even if not asked for).
        public static let hangup = Events(rawValue: Int16(POLLHUP))
        /// The fd is not open (`POLLNVAL`): the loop removes such a source after its handler ran.
        public static let invalid = Events(rawValue: Int16(POLLNVAL))
    }

    /// Identifies a source for `setEvents` / `removeSource`.
    public struct SourceToken: Hashable, Sendable {
        fileprivate let id: Int
    }

    /// Identifies a timer for `cancelTimer`.
    public struct TimerToken: Hashable, Sendable {
        fileprivate let id: Int
    }

    private final class Source {
        let token: SourceToken
        let fd: Int32
        var events: Events
        /// Runs right before each poll and returns the events to wait for (the Wayland display uses it
        /// for prepare_read and flush).
        let prepare: (() throws -> Events)?
        let handler: (Events) throws -> Void
        /// Call the handler after every poll, even with no events (the display must cancel its read).
        let callAlways: Bool
        let closesFD: Bool
        var isRemoved = false

        init(token: SourceToken, fd: Int32, events: Events, prepare: (() throws -> Events)?,
             handler: @escaping (Events) throws -> Void, callAlways: Bool, closesFD: Bool) {
            self.token = token
            self.fd = fd
            self.events = events
            self.prepare = prepare
            self.handler = handler
            self.callAlways = callAlways
            self.closesFD = closesFD
        }
    }

    private struct Timer {
        let token: TimerToken
        let deadline: MonotonicInstant
        let handler: () throws -> Void
    }

    private var sources: [Source] = []
    private var timers: [Timer] = []
    private var nextID = 0
    private var stopRequested = false
    private var isRunning = false

    /// Creates an empty loop.
    public init() {}

    deinit {
        for source in sources where source.closesFD { _ = Glibc.close(source.fd) }
    }

    /// Watches `fd` for `events`; `handler` gets the events that occurred. The loop does not own `fd`.
    /// A handler must consume what made the fd ready or remove its source: a pipe at EOF keeps
    /// reporting `.hangup`, and the loop would spin on it.
    @discardableResult
    public func addSource(fd: Int32, events: Events, handler: @escaping (Events) throws -> Void) -> SourceToken {
        insertSource(fd: fd, events: events, prepare: nil, handler: handler, callAlways: false, closesFD: false)
    }

    /// Changes the events a source waits for (from the next poll on).
    public func setEvents(_ events: Events, for token: SourceToken) {
        sources.first { $0.token == token }?.events = events
    }

    /// Stops watching a source; its handler is not called again (even later in the current iteration).
    public func removeSource(_ token: SourceToken) {
        guard let index = sources.firstIndex(where: { $0.token == token }) else { return }
        let source = sources.remove(at: index)
        source.isRemoved = true
        if source.closesFD { _ = Glibc.close(source.fd) }
    }

    /// Calls `handler` once, at or soon after `deadline` (one-shot). While a timer is set, poll wakes
    /// for it; the app sets one while it animates without frame callbacks, and none while idle.
    @discardableResult
    public func addTimer(at deadline: MonotonicInstant, handler: @escaping () throws -> Void) -> TimerToken {
        nextID += 1
        let token = TimerToken(id: nextID)
        timers.append(Timer(token: token, deadline: deadline, handler: handler))
        return token
    }

    /// Cancels a timer that has not fired yet (no effect otherwise).
    public func cancelTimer(_ token: TimerToken) {
        timers.removeAll { $0.token == token }
    }

    /// Blocks `signals` (e.g. `[SIGINT, SIGTERM]`) for the calling thread and reports them through a
    /// signalfd: `handler` gets each signal number. Call it before starting any thread, so no other
    /// thread receives them instead.
    @discardableResult
    public func addSignalSource(_ signals: [Int32], handler: @escaping (Int32) throws -> Void) throws(WaylandError) -> SourceToken {
        let fd = signals.withUnsafeBufferPointer { wlslider_signalfd_block($0.baseAddress, Int32($0.count)) }
        guard fd >= 0 else { throw .systemCall("signalfd", errno: lastErrno(), while: "blocking signals \(signals)") }
        return insertSource(fd: fd, events: .readable, prepare: nil, handler: { _ in
            while true {
                let signal = wlslider_signalfd_read(fd)
                if signal <= 0 { return }
                try handler(signal)
            }
        }, callAlways: false, closesFD: true)
    }

    /// Runs until `stop()` is called or a handler throws (rethrown here). Returns at once when there is
    /// nothing left to wait for (no source, no timer).
    public func run() throws {
        precondition(!isRunning, "EventLoop.run() is not reentrant")
        isRunning = true
        stopRequested = false
        defer { isRunning = false }
        while !stopRequested {
            if sources.isEmpty && timers.isEmpty { return }
            try iterate()
        }
    }

    /// Makes `run()` return after the current iteration.
    public func stop() {
        stopRequested = true
    }

    /// The poll timeout in milliseconds for the earliest `deadline`: -1 (block) without one, 0 when it
    /// has passed, otherwise rounded up so the loop never wakes before it and spins.
    public static func pollTimeout(now: MonotonicInstant, deadline: MonotonicInstant?) -> Int32 {
        guard let deadline else { return -1 }
        if deadline <= now { return 0 }
        let milliseconds = (deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000
        return Int32(clamping: milliseconds)
    }

    // MARK: - Internals

    /// A source with a `prepare` step and/or a handler that runs after every poll (the display).
    func addSource(fd: Int32, prepare: @escaping () throws -> Events, handler: @escaping (Events) throws -> Void) -> SourceToken {
        insertSource(fd: fd, events: .readable, prepare: prepare, handler: handler, callAlways: true, closesFD: false)
    }

    private func insertSource(fd: Int32, events: Events, prepare: (() throws -> Events)?,
                              handler: @escaping (Events) throws -> Void, callAlways: Bool, closesFD: Bool) -> SourceToken {
        nextID += 1
        let token = SourceToken(id: nextID)
        sources.append(Source(token: token, fd: fd, events: events, prepare: prepare, handler: handler,
                              callAlways: callAlways, closesFD: closesFD))
        return token
    }

    private func iterate() throws {
        let active = sources
        for source in active where !source.isRemoved {
            if let prepare = source.prepare { source.events = try prepare() }
        }
        var fds = active.map { pollfd(fd: $0.fd, events: $0.events.rawValue, revents: 0) }
        try waitForEvents(&fds)
        try dispatch(active, fds)
        try fireDueTimers()
    }

    private func waitForEvents(_ fds: inout [pollfd]) throws(WaylandError) {
        while true {
            let deadline = timers.map(\.deadline).min()
            let timeout = EventLoop.pollTimeout(now: .now(), deadline: deadline)
            if poll(&fds, nfds_t(fds.count), timeout) >= 0 { return }
            let code = lastErrno()
            if code != EINTR { throw .systemCall("poll", errno: code, while: "waiting for \(fds.count) fds") }
        }
    }

    /// Calls the handler of each ready source, `callAlways` ones (the display) first: their prepared
    /// read must be completed before any app handler runs, or a roundtrip there would wait for it
    /// forever. After an error only `callAlways` handlers still run; then the first error is thrown.
    private func dispatch(_ active: [Source], _ fds: [pollfd]) throws {
        var firstError: (any Error)?
        let ordered = zip(active, fds).filter { $0.0.callAlways } + zip(active, fds).filter { !$0.0.callAlways }
        for (source, entry) in ordered where !source.isRemoved {
            let occurred = Events(rawValue: entry.revents)
            guard !occurred.isEmpty || source.callAlways else { continue }
            guard firstError == nil || source.callAlways else { continue }
            do { try source.handler(occurred) } catch { firstError = firstError ?? error }
            if occurred.contains(.invalid) && !source.isRemoved { removeSource(source.token) }
        }
        if let firstError { throw firstError }
    }

    /// Fires the timers that are due now, earliest first. A timer cancelled by an earlier handler in
    /// the same round does not fire; timers added by a handler wait for the next iteration.
    private func fireDueTimers() throws {
        let now = MonotonicInstant.now()
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        for timer in due {
            guard let index = timers.firstIndex(where: { $0.token == timer.token }) else { continue }
            timers.remove(at: index)
            try timer.handler()
        }
    }
}
