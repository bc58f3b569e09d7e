// The single-threaded event loop: the Wayland display, stdin, the sinks' descriptors, signals and
// timers all wait in one place, in epoll_wait. Nothing wakes up unless a descriptor is ready or a
// timer is due, so an idle slider sleeps with no timeout.
internal import CPosix
internal import Glibc

/// A single-threaded loop with the semantics of `poll(2)`, waiting with epoll. Sources are
/// descriptors with a handler; timers are one-shot deadlines on the loop's clock that bound the
/// wait. With no timer set, the wait blocks without a timeout.
///
/// As with poll, readiness is level-triggered, errors and hang-ups are reported whether asked for
/// or not, a descriptor that is not open is reported `.invalid` (and its source removed), and a
/// file epoll cannot watch (a regular file, `/dev/null`) is always ready for what it is asked.
/// Unlike poll, the kernel keeps the set between waits: an iteration makes no system call but the
/// wait unless some source's events changed, and the cost of a wait does not grow with the number
/// of descriptors.
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
        /// The latest it may fire: `deadline` plus the leeway it was scheduled with.
        fileprivate var latest = MonotonicInstant(nanoseconds: 0)
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
        /// Its descriptor, shared with the other sources on the same one.
        let watch: Watch
        var events: Events
        /// What it waited for in this iteration: the events it is told about (with the conditions
        /// poll reports unasked), even when a handler changed `events` since.
        var waitedFor: Events = []
        /// Runs right before each wait and returns the events to wait for (the Wayland display uses
        /// it for prepare_read and flush); such a source's handler runs after every wait, first.
        let prepare: (() throws -> Events)?
        let handler: (Events) throws -> Void
        /// A descriptor the loop owns (a signalfd): closed when the source goes.
        var owned: FileDescriptor?
        var isRemoved = false

        init(token: SourceToken, watch: Watch, events: Events, prepare: (() throws -> Events)?,
             handler: @escaping (Events) throws -> Void, owned: consuming FileDescriptor?) {
            self.token = token
            self.watch = watch
            self.events = events
            self.prepare = prepare
            self.handler = handler
            self.owned = owned
        }

        /// What occurred of what it waited for in this iteration.
        var occurred: Events {
            watch.occurred.intersection(waitedFor.union([.error, .hangup, .invalid]))
        }
    }

    /// A descriptor as the loop watches it. epoll takes one registration per descriptor, so all
    /// the sources on one descriptor share one, which waits for the union of their events (libdecor
    /// watches the Wayland display's descriptor too; stdout and `--audio-out -` may share fd 1).
    ///
    /// A registration belongs to the open file, not to the number, and epoll removes it only when
    /// the file's last descriptor closes. So a descriptor closed while a source still watches it
    /// (against the rule of `addSource`) goes one of two ways:
    /// - nothing else has the file open: the registration vanishes and the source hears nothing
    ///   more — no spin, but no `.invalid` either — until its events change (epoll_ctl then fails:
    ///   `.invalid`, and the source is removed) or it is removed;
    /// - another descriptor has it open (a dup, a child's copy): the registration lives on and
    ///   keeps reporting the file's readiness to the source, whose calls on the closed number fail
    ///   (a handler that ignores that is called again at once, as for an unresolved error). Once
    ///   the source is removed — wlslider's remove theirs when a call fails — epoll_ctl cannot
    ///   remove the orphan: the loop marks its epoll set stale and replaces it before the next
    ///   wait, so the orphan cannot wake the loop again and again.
    /// A new file that gets the number meanwhile is not watched; a source added for it joins the
    /// old registration. wlslider's sources remove themselves before their descriptors close.
    private final class Watch {
        enum Registration: Equatable {
            /// Not in the epoll set yet (a new descriptor, or a new set).
            case none
            /// In the epoll set, waiting for these events.
            case waiting(Events)
            /// A file epoll refuses (EPERM: a regular file, `/dev/null`), which poll reports ready
            /// at once for reading and writing.
            case alwaysReady
            /// Not an open descriptor (EBADF), or no longer the one it was (closed while watched).
            case invalid
        }

        let fd: Int32
        var registration = Registration.none
        /// How many sources watch it; it goes with the last.
        var sourceCount = 0
        /// The union of its sources' events: what the registration should wait for.
        var wanted: Events = []
        /// What this iteration's wait reported.
        var occurred: Events = []

        init(fd: Int32) {
            self.fd = fd
        }

        /// What poll would report at once, without the descriptor being ready.
        var readyWithoutWaiting: Events {
            switch registration {
            case .invalid: .invalid
            case .alwaysReady: wanted
            case .none, .waiting: []
            }
        }
    }

    /// The clock timers are set and fired on.
    public let clock: any MonotonicClock
    private var sources: [Source] = []
    /// The watched descriptors (a handful: a short list searched by number beats hashing).
    private var watches: [Watch] = []
    /// Whether the epoll set may differ from what the sources wait for: a source came, went or
    /// changed its events. Until then a wait makes no other system call.
    private var registrationsChanged = true
    /// Created at the first wait (creating it can fail, and `init` does not throw); replaced when
    /// it may hold a registration the loop cannot remove (see `release`).
    private var epoll: Epoll?
    private var epollIsStale = false
    /// The scheduled timers, in no order.
    private var timers: [Timer] = []
    private var timerSequence = 0
    private var nextID = 0
    private var stopRequested = false
    private var isRunning = false

    /// Creates an empty loop whose timers run on `clock`.
    public init(clock: any MonotonicClock = SystemClock.shared) {
        self.clock = clock
        timers.reserveCapacity(8)
        watches.reserveCapacity(8)
    }

    /// The loop clock's current instant.
    public func now() -> MonotonicInstant { clock.now() }

    // MARK: Sources

    /// Watches `fd` for `events`; `handler` gets the events that occurred. The loop does not own
    /// `fd`. A handler must resolve what made the descriptor ready — consume the input, read the
    /// error off it, or remove its source — or the next wait reports it again at once: a pipe at
    /// EOF keeps reporting `.hangup`, a socket keeps `.error` until its error is read.
    ///
    /// Several sources may watch one descriptor; each is told only about what it asked for (and
    /// errors, hang-ups). The descriptor must stay open while a source watches it: remove the
    /// source, then close it. (epoll watches the open file, not the number: a descriptor closed
    /// while watched is not reported `.invalid` as poll would, and a new file that gets the number
    /// is not watched. See `Watch` in the source for what happens then.)
    @discardableResult
    public func addSource(fd: Int32, events: Events, handler: @escaping (Events) throws -> Void) -> SourceToken {
        insertSource(fd: fd, events: events, prepare: nil, handler: handler, owned: nil)
    }

    /// A source that must prepare before every wait and complete after it, whatever happened (the
    /// Wayland display: `prepare` does prepare_read and flush and returns the events to wait for,
    /// `handler` reads or cancels). Such sources are handled before all others.
    @discardableResult
    public func addSource(fd: Int32, prepare: @escaping () throws -> Events,
                          handler: @escaping (Events) throws -> Void) -> SourceToken {
        insertSource(fd: fd, events: .readable, prepare: prepare, handler: handler, owned: nil)
    }

    /// Changes the events a source waits for (from the next wait on).
    public func setEvents(_ events: Events, for token: SourceToken) {
        for source in sources where source.token == token && source.events != events {
            source.events = events
            registrationsChanged = true
        }
    }

    /// Stops watching a source; its handler is not called again (even later in this iteration).
    public func removeSource(_ token: SourceToken) {
        guard let index = sources.firstIndex(where: { $0.token == token }) else { return }
        let source = sources.remove(at: index)
        source.isRemoved = true
        registrationsChanged = true
        release(source.watch)
        // A signalfd closes only now: after it left the epoll set.
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

    /// How many sources are watched (for tests: one whose descriptor is not open goes by itself).
    var sourceCount: Int { sources.count }

    // MARK: Timers

    /// A timer that calls `handler` each time it fires; not scheduled yet.
    public func makeTimer(_ handler: @escaping () throws -> Void) -> Timer {
        Timer(handler: handler)
    }

    /// Schedules `timer` at `deadline` on the loop's clock (moving it if it was scheduled).
    ///
    /// A timer that may fire up to `leewayMilliseconds` late lets the loop keep the wake-up it
    /// has set when the timer moves within that span: a watchdog moved a little later every frame
    /// then costs a system call every few frames instead of every frame. It never fires early.
    /// A leeway that is not a finite positive number counts as none.
    public func schedule(_ timer: Timer, at deadline: MonotonicInstant, leewayMilliseconds: Double = 0) {
        if timer.deadline == nil { timers.append(timer) }
        timer.deadline = deadline
        let leeway = leewayMilliseconds.isFinite ? leewayMilliseconds : 0
        timer.latest = leeway > 0 ? deadline.advanced(byMilliseconds: leeway) : deadline
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

    /// One iteration: wait (at most `maximumWaitMilliseconds`, or until the next timer when nil),
    /// run the handlers of ready sources, fire due timers. For tests on a manual clock.
    public func runOnce(maximumWaitMilliseconds: Int32? = 0) throws {
        try iterate(maximumWaitMilliseconds: maximumWaitMilliseconds)
    }

    /// Makes `run()` return after the current iteration (at once when it is not running yet).
    public func stop() {
        stopRequested = true
    }

    /// The wait's timeout in milliseconds for the earliest `deadline`: -1 (block) without one, 0 when
    /// it has passed, otherwise rounded up so the loop never wakes before it and spins.
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
        let source = Source(token: token, watch: watch(fd), events: events, prepare: prepare, handler: handler, owned: owned)
        source.watch.sourceCount += 1
        registrationsChanged = true
        // Prepared sources (the display) first: their read must complete before any other handler.
        if prepare != nil {
            sources.insert(source, at: 0)
        } else {
            sources.append(source)
        }
        return token
    }

    /// The watch of `fd`, shared with the sources already on it.
    private func watch(_ fd: Int32) -> Watch {
        guard let watch = watches.first(where: { $0.fd == fd }) else {
            let watch = Watch(fd: fd)
            watches.append(watch)
            return watch
        }
        // Found not open at the last wait, it may be open by now (poll looks at every wait): retry.
        if watch.registration == .invalid { watch.registration = .none }
        return watch
    }

    /// One source fewer on `watch`; the last one takes the registration with it.
    private func release(_ watch: Watch) {
        watch.sourceCount -= 1
        guard watch.sourceCount == 0 else { return }
        if let index = watches.firstIndex(where: { $0 === watch }) { watches.remove(at: index) }
        guard case .waiting = watch.registration, let epoll else { return }
        do {
            try epoll.remove(watch.fd)
        } catch {
            // Closed (and maybe reused) while watched: if another descriptor keeps the file open,
            // its registration lives on, beyond reach of epoll_ctl, and would report it forever.
            epollIsStale = true
        }
    }

    private func iterate(maximumWaitMilliseconds: Int32?) throws {
        try prepareSources()
        // The sources of this wait, whatever the handlers add or remove meanwhile.
        let polled = sources
        var waitError: SystemError?
        do { try waitForEvents(maximumWaitMilliseconds: maximumWaitMilliseconds) } catch { waitError = error }
        let scheduledBefore = timerSequence
        try dispatch(polled, after: waitError)
        try fireDueTimers(scheduledUpTo: scheduledBefore)
    }

    /// Runs the prepared sources' `prepare` and notes what each source waits for this time.
    /// (Two loops: one that calls out, over the prepared sources only, which come first; and one
    /// that does not, so it need not retain each source it looks at, twice a frame.)
    private func prepareSources() throws {
        for source in sources {
            guard let prepare = source.prepare else { break }
            let events = try prepare()
            if events != source.events {
                source.events = events
                registrationsChanged = true
            }
        }
        for source in sources { source.waitedFor = source.events }
    }

    /// When the loop must wake for its timers: not before the earliest deadline, nor after the
    /// earliest that any timer's leeway allows. Nil without a timer.
    private func wakeWindow() -> ClosedRange<MonotonicInstant>? {
        var window: (earliest: MonotonicInstant, latest: MonotonicInstant)?
        for timer in timers {
            guard let deadline = timer.deadline else { continue }
            guard let found = window else {
                window = (deadline, timer.latest)
                continue
            }
            window = (Swift.min(found.earliest, deadline), Swift.min(found.latest, timer.latest))
        }
        return window.map { $0.earliest...$0.latest }
    }

    /// How many times the loop set or disarmed its deadline timer (for tests).
    var deadlineTimerSets: Int { epoll?.timerSets ?? 0 }

    /// Waits until a descriptor is ready, the earliest timer is due or `maximumWaitMilliseconds`
    /// pass (at once when a descriptor is ready without waiting) and notes what occurred on each.
    /// On the system clock, the epoll set's deadline timer ends the wait at the timer; on another
    /// clock (a test's), a timeout until it does.
    private func waitForEvents(maximumWaitMilliseconds: Int32?) throws(SystemError) {
        let (epoll, readyNow) = try updateRegistrations()
        var timeout: Int32 = -1
        if epoll.wakesAtDeadlines {
            do { try epoll.wake(within: wakeWindow()) } catch { throw error.error("timerfd_settime") }
        } else {
            timeout = EventLoop.pollTimeout(now: clock.now(), deadline: wakeWindow()?.lowerBound)
        }
        if let maximumWaitMilliseconds, timeout < 0 || timeout > maximumWaitMilliseconds {
            timeout = maximumWaitMilliseconds
        }
        let count: Int
        do {
            count = try epoll.wait(timeoutMilliseconds: readyNow ? 0 : timeout)
        } catch {
            throw error.error("epoll_wait on \(watches.count) descriptors")
        }
        for index in 0..<count {
            let (fd, events) = epoll.event(at: index)
            for watch in watches where watch.fd == fd {
                if case .waiting = watch.registration { watch.occurred = events }
            }
        }
    }

    /// Brings the epoll set in line with what the sources wait for — no system call when nothing
    /// changed — and sets what each descriptor reports without waiting. Returns the set, and
    /// whether any descriptor reports something without waiting.
    private func updateRegistrations() throws(SystemError) -> (Epoll, readyNow: Bool) {
        let epoll = try currentEpoll()
        if registrationsChanged {
            epoll.reserve(watches.count)
            for watch in watches { watch.wanted = [] }
            for source in sources { source.watch.wanted.formUnion(source.events.intersection([.readable, .writable])) }
            for watch in watches { try register(watch, in: epoll) }
            registrationsChanged = false
        }
        var readyNow = false
        for watch in watches {
            watch.occurred = watch.readyWithoutWaiting
            readyNow = readyNow || !watch.occurred.isEmpty
        }
        return (epoll, readyNow)
    }

    /// The epoll set, new at the first wait or when the old one is stale: every descriptor is then
    /// registered anew.
    private func currentEpoll() throws(SystemError) -> Epoll {
        if epollIsStale {
            epoll = nil
            epollIsStale = false
            for watch in watches where watch.registration != .alwaysReady && watch.registration != .invalid {
                watch.registration = .none
            }
            registrationsChanged = true
        }
        if let epoll { return epoll }
        do {
            // The deadline timer follows CLOCK_MONOTONIC, which only the system clock reads.
            let created = try Epoll(capacity: Swift.max(watches.count, 8), deadlines: clock is SystemClock)
            epoll = created
            return created
        } catch {
            throw error.error("epoll_create1")
        }
    }

    /// Registers `watch` in `epoll`, or changes its events there, when needed.
    private func register(_ watch: Watch, in epoll: Epoll) throws(SystemError) {
        switch watch.registration {
        case .none:
            do {
                try epoll.add(watch.fd, for: watch.wanted)
                watch.registration = .waiting(watch.wanted)
            } catch Errno(EBADF) {
                watch.registration = .invalid
            } catch Errno(EPERM) {
                watch.registration = .alwaysReady
            } catch {
                throw error.error("epoll_ctl add of fd \(watch.fd)")
            }
        case .waiting(let events) where events != watch.wanted:
            do {
                try epoll.modify(watch.fd, for: watch.wanted)
                watch.registration = .waiting(watch.wanted)
            } catch Errno(EBADF), Errno(ENOENT) {
                // Closed while watched (see `release`); poll would have reported it not open.
                watch.registration = .invalid
                epollIsStale = true
            } catch {
                throw error.error("epoll_ctl modify of fd \(watch.fd)")
            }
        case .waiting, .alwaysReady, .invalid:
            break
        }
    }

    /// Calls the handler of each ready source, prepared ones (the display) always. After an error
    /// only prepared sources still run; then the first error is thrown. After a failed wait they
    /// run with no events (the display cancels its read) and the wait's error is thrown. A source
    /// whose descriptor is not open (`.invalid`) is removed after its handler ran.
    private func dispatch(_ polled: [Source], after waitError: SystemError?) throws {
        var firstError: (any Error)? = waitError
        for index in polled.indices {
            let source = polled[index]
            guard !source.isRemoved else { continue }
            let occurred = waitError == nil ? source.occurred : []
            let always = source.prepare != nil
            guard !occurred.isEmpty || always, firstError == nil || always else { continue }
            do { try source.handler(occurred) } catch { firstError = firstError ?? error }
            if occurred.contains(.invalid) && !source.isRemoved { removeSource(source.token) }
        }
        if let firstError { throw firstError }
    }

    /// Fires the timers that are due now, earliest first. A timer cancelled by an earlier handler in
    /// the same round does not fire; timers scheduled by a handler wait for the next iteration.
    private func fireDueTimers(scheduledUpTo limit: Int) throws {
        let now = clock.now()
        while true {
            var due: (index: Int, deadline: MonotonicInstant)?
            for index in timers.indices {
                guard let deadline = timers[index].deadline, deadline <= now, timers[index].sequence <= limit else { continue }
                if due.map({ deadline < $0.deadline }) ?? true { due = (index, deadline) }
            }
            guard let index = due?.index else { return }
            let timer = timers.remove(at: index)
            timer.deadline = nil
            try timer.handler()
        }
    }
}
