// The single-threaded poll(2) loop: the Wayland display, stdin, the sinks' descriptors, signals and
// timers all wait in one place. Nothing wakes up unless a descriptor is ready or a timer is due, so
// an idle slider sleeps in poll with no timeout.
internal import CPosix
internal import Glibc

/// A single-threaded `poll(2)` loop. Sources are descriptors with a handler; timers are one-shot
/// deadlines on the loop's clock that bound the poll timeout. With no timer set, `poll` blocks
/// without a timeout.
///
/// Handlers may throw: `run()` stops and rethrows the first error (after letting `prepare` sources
/// — the Wayland display — complete their read, so the display stays consistent). Not thread-safe.
public final class EventLoop {
    /// Readiness bits.
    public typealias Events = PollEvents

    /// Identifies a source for `setEvents` / `removeSource`.
    public struct SourceToken: Hashable, Sendable {
        fileprivate let id: Int
    }

    /// A timer: a handler the loop calls once at a deadline, each time it is scheduled. Make one
    /// with `makeTimer` and schedule it again and again (a frame timer, say): scheduling allocates
    /// nothing.
    public final class Timer {
        fileprivate let handler: () throws -> Void
        /// When it fires; nil while it is not scheduled.
        public fileprivate(set) var deadline: MonotonicInstant?
        /// When it was scheduled, in the loop's count: a timer scheduled by a handler waits for
        /// the next iteration even when already due.
        fileprivate var sequence = 0

        fileprivate init(handler: @escaping () throws -> Void) {
            self.handler = handler
        }

        /// Whether it is scheduled.
        public var isScheduled: Bool { deadline != nil }
    }

    private final class Source {
        let token: SourceToken
        let fd: Int32
        var events: Events
        /// Runs right before each poll and returns the events to wait for (the Wayland display uses
        /// it for prepare_read and flush); such a source's handler runs after every poll, first.
        let prepare: (() throws -> Events)?
        let handler: (Events) throws -> Void
        /// A descriptor the loop owns (a signalfd): closed when the source goes.
        var owned: FileDescriptor?
        var isRemoved = false

        init(token: SourceToken, fd: Int32, events: Events, prepare: (() throws -> Events)?,
             handler: @escaping (Events) throws -> Void, owned: consuming FileDescriptor?) {
            self.token = token
            self.fd = fd
            self.events = events
            self.prepare = prepare
            self.handler = handler
            self.owned = owned
        }
    }

    /// The clock timers are set and fired on.
    public let clock: any MonotonicClock
    private var sources: [Source] = []
    /// The scheduled timers, in no order.
    private var timers: [Timer] = []
    private var timerSequence = 0
    /// Reused between iterations: the poll set and the sources it was built from.
    private var pollSet: [pollfd] = []
    private var polled: [Source] = []
    private var nextID = 0
    private var stopRequested = false
    private var isRunning = false

    /// Creates an empty loop whose timers run on `clock`.
    public init(clock: any MonotonicClock = SystemClock.shared) {
        self.clock = clock
        timers.reserveCapacity(8)
        pollSet.reserveCapacity(8)
        polled.reserveCapacity(8)
    }

    /// The loop clock's current instant.
    public func now() -> MonotonicInstant { clock.now() }

    // MARK: Sources

    /// Watches `fd` for `events`; `handler` gets the events that occurred. The loop does not own
    /// `fd`. A handler must resolve what made the descriptor ready — consume the input, read the
    /// error off it, or remove its source — or the next poll reports it again at once: a pipe at
    /// EOF keeps reporting `.hangup`, a socket keeps `.error` until its error is read.
    @discardableResult
    public func addSource(fd: Int32, events: Events, handler: @escaping (Events) throws -> Void) -> SourceToken {
        insertSource(fd: fd, events: events, prepare: nil, handler: handler, owned: nil)
    }

    /// A source that must prepare before every poll and complete after it, whatever happened (the
    /// Wayland display: `prepare` does prepare_read and flush and returns the events to wait for,
    /// `handler` reads or cancels). Such sources are handled before all others.
    @discardableResult
    public func addSource(fd: Int32, prepare: @escaping () throws -> Events,
                          handler: @escaping (Events) throws -> Void) -> SourceToken {
        insertSource(fd: fd, events: .readable, prepare: prepare, handler: handler, owned: nil)
    }

    /// Changes the events a source waits for (from the next poll on).
    public func setEvents(_ events: Events, for token: SourceToken) {
        for source in sources where source.token == token { source.events = events }
    }

    /// Stops watching a source; its handler is not called again (even later in this iteration).
    public func removeSource(_ token: SourceToken) {
        guard let index = sources.firstIndex(where: { $0.token == token }) else { return }
        let source = sources.remove(at: index)
        source.isRemoved = true
        source.owned = nil
    }

    /// Watches a signalfd (taking it over): `handler` gets each signal number as it arrives.
    @discardableResult
    public func addSignalSource(_ signals: consuming SignalDescriptor, handler: @escaping (Int32) throws -> Void) -> SourceToken {
        let fd = signals.descriptor.rawValue
        return insertSource(fd: fd, events: .readable, prepare: nil, handler: { _ in
            while true {
                let signal = cposix_signalfd_read(fd)
                if signal <= 0 { return }
                try handler(signal)
            }
        }, owned: signals.file)
    }

    // MARK: Timers

    /// A timer that calls `handler` each time it fires; not scheduled yet.
    public func makeTimer(_ handler: @escaping () throws -> Void) -> Timer {
        Timer(handler: handler)
    }

    /// Schedules `timer` at `deadline` on the loop's clock (moving it if it was scheduled).
    public func schedule(_ timer: Timer, at deadline: MonotonicInstant) {
        if timer.deadline == nil { timers.append(timer) }
        timer.deadline = deadline
        timerSequence += 1
        timer.sequence = timerSequence
    }

    /// Schedules `timer` `milliseconds` from now on the loop's clock.
    public func schedule(_ timer: Timer, afterMilliseconds milliseconds: Double) {
        schedule(timer, at: clock.now().advanced(byMilliseconds: milliseconds))
    }

    /// Calls `handler` once, at or soon after `deadline` on the loop's clock.
    @discardableResult
    public func addTimer(at deadline: MonotonicInstant, handler: @escaping () throws -> Void) -> Timer {
        let timer = makeTimer(handler)
        schedule(timer, at: deadline)
        return timer
    }

    /// Calls `handler` once, `milliseconds` from now on the loop's clock.
    @discardableResult
    public func addTimer(afterMilliseconds milliseconds: Double, handler: @escaping () throws -> Void) -> Timer {
        addTimer(at: clock.now().advanced(byMilliseconds: milliseconds), handler: handler)
    }

    /// Unschedules a timer (no effect when it is not scheduled).
    public func cancelTimer(_ timer: Timer) {
        guard timer.deadline != nil else { return }
        timer.deadline = nil
        if let index = timers.firstIndex(where: { $0 === timer }) { timers.remove(at: index) }
    }

    /// How many timers are scheduled: 0 while idle.
    public var timerCount: Int { timers.count }

    // MARK: Running

    /// Runs until `stop()` is called or a handler throws (rethrown here). Returns at once when there
    /// is nothing left to wait for (no source, no timer), or when `stop()` was called before.
    public func run() throws {
        precondition(!isRunning, "EventLoop.run() is not reentrant")
        isRunning = true
        defer {
            isRunning = false
            stopRequested = false
        }
        while !stopRequested {
            if sources.isEmpty && timers.isEmpty { return }
            try iterate(maximumWaitMilliseconds: nil)
        }
    }

    /// One iteration: poll (waiting at most `maximumWaitMilliseconds`, or until the next timer
    /// when nil), run the handlers of ready sources, fire due timers. For tests on a manual clock.
    public func runOnce(maximumWaitMilliseconds: Int32? = 0) throws {
        try iterate(maximumWaitMilliseconds: maximumWaitMilliseconds)
    }

    /// Makes `run()` return after the current iteration (at once when it is not running yet).
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

    private func insertSource(fd: Int32, events: Events, prepare: (() throws -> Events)?,
                              handler: @escaping (Events) throws -> Void, owned: consuming FileDescriptor?) -> SourceToken {
        nextID += 1
        let token = SourceToken(id: nextID)
        let source = Source(token: token, fd: fd, events: events, prepare: prepare, handler: handler, owned: owned)
        // Prepared sources (the display) first: their read must complete before any other handler.
        if prepare != nil {
            sources.insert(source, at: 0)
        } else {
            sources.append(source)
        }
        return token
    }

    private func iterate(maximumWaitMilliseconds: Int32?) throws {
        polled.removeAll(keepingCapacity: true)
        pollSet.removeAll(keepingCapacity: true)
        for source in sources {
            if let prepare = source.prepare { source.events = try prepare() }
            polled.append(source)
            pollSet.append(pollfd(fd: source.fd, events: source.events.rawValue, revents: 0))
        }
        var timeout = EventLoop.pollTimeout(now: clock.now(), deadline: earliestDeadline())
        if let maximumWaitMilliseconds, timeout < 0 || timeout > maximumWaitMilliseconds {
            timeout = maximumWaitMilliseconds
        }
        try waitForEvents(timeout: timeout)
        let scheduledBefore = timerSequence
        try dispatch()
        try fireDueTimers(scheduledUpTo: scheduledBefore)
    }

    private func earliestDeadline() -> MonotonicInstant? {
        var earliest: MonotonicInstant?
        for timer in timers {
            if let deadline = timer.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    private func waitForEvents(timeout: Int32) throws(SystemError) {
        let count = pollSet.count
        let result = pollSet.withUnsafeMutableBufferPointer { fds in
            retryingInterrupts { Glibc.poll(fds.baseAddress, nfds_t(count), timeout) }
        }
        if case .failure(let error) = result { throw error.error("poll of \(count) descriptors") }
    }

    /// Calls the handler of each ready source, prepared ones (the display) always. After an error
    /// only prepared sources still run; then the first error is thrown. A source whose descriptor
    /// is not open (POLLNVAL) is removed after its handler ran.
    private func dispatch() throws {
        var firstError: (any Error)?
        for index in polled.indices {
            let source = polled[index]
            guard !source.isRemoved else { continue }
            let occurred = Events(rawValue: pollSet[index].revents)
            let always = source.prepare != nil
            guard !occurred.isEmpty || always, firstError == nil || always else { continue }
            do { try source.handler(occurred) } catch { firstError = firstError ?? error }
            if occurred.contains(.invalid) && !source.isRemoved { removeSource(source.token) }
        }
        polled.removeAll(keepingCapacity: true)
        if let firstError { throw firstError }
    }

    /// Fires the timers that are due now, earliest first. A timer cancelled by an earlier handler in
    /// the same round does not fire; timers scheduled by a handler wait for the next iteration.
    private func fireDueTimers(scheduledUpTo limit: Int) throws {
        let now = clock.now()
        while true {
            var due: Int?
            for index in timers.indices {
                guard let deadline = timers[index].deadline, deadline <= now, timers[index].sequence <= limit else { continue }
                if due.map({ deadline < timers[$0].deadline! }) ?? true { due = index }
            }
            guard let index = due else { return }
            let timer = timers.remove(at: index)
            timer.deadline = nil
            try timer.handler()
        }
    }
}
