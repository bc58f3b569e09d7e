import Glibc
import Testing
@testable import Posix

private struct Boom: Error, Equatable {}

/// A pipe whose ends close when the test is done.
private final class Pipe {
    let read: Int32
    let write: Int32
    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        read = fds[0]
        write = fds[1]
    }
    deinit {
        close(read)
        close(write)
    }
    func send(_ byte: UInt8) {
        var value = byte
        precondition(Glibc.write(write, &value, 1) == 1)
    }
    func receive() -> UInt8 {
        var value: UInt8 = 0
        precondition(Glibc.read(read, &value, 1) == 1)
        return value
    }
}

/// A connected pair of Unix stream sockets: `mine` is watched, `peer` sends and hangs up. Writable
/// at once, readable once the peer sends.
private final class SocketPair {
    let mine: Int32
    private(set) var peer: Int32
    init() {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        mine = fds[0]
        peer = fds[1]
    }
    deinit {
        close(mine)
        if peer >= 0 { close(peer) }
    }
    func send(_ byte: UInt8) {
        var value = byte
        precondition(Glibc.write(peer, &value, 1) == 1)
    }
    func receive() -> UInt8 {
        var value: UInt8 = 0
        precondition(Glibc.read(mine, &value, 1) == 1)
        return value
    }
    func hangUp() {
        close(peer)
        peer = -1
    }
}

/// Milliseconds `body` took.
private func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = MonotonicInstant.now()
    try body()
    return Double(MonotonicInstant.now().nanoseconds(since: start)) / 1e6
}

@Suite struct EventLoopTests {
    @Test func pollTimeoutRoundsUpAndBlocksWithoutDeadline() {
        let now = MonotonicInstant(nanoseconds: 1_000_000_000)
        #expect(EventLoop.pollTimeout(now: now, deadline: nil) == -1)
        #expect(EventLoop.pollTimeout(now: now, deadline: now) == 0)
        #expect(EventLoop.pollTimeout(now: now, deadline: now.advanced(byNanoseconds: -5)) == 0)
        #expect(EventLoop.pollTimeout(now: now, deadline: now.advanced(byNanoseconds: 1)) == 1)
        #expect(EventLoop.pollTimeout(now: now, deadline: now.advanced(byMilliseconds: 1.5)) == 2)
        #expect(EventLoop.pollTimeout(now: now, deadline: now.advanced(byMilliseconds: 16)) == 16)
        #expect(EventLoop.pollTimeout(now: now, deadline: MonotonicInstant(nanoseconds: .max)) == Int32.max)
    }

    @Test func readableSourceRunsItsHandler() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        var received: [UInt8] = []
        var seen: EventLoop.Events = []
        loop.addSource(fd: pipe.read, events: .readable) { events in
            seen = events
            received.append(pipe.receive())
            if received.count == 2 { loop.stop() }
        }
        pipe.send(7)
        pipe.send(9)
        try loop.run()
        #expect(received == [7, 9])
        #expect(seen.contains(.readable))
    }

    @Test func removedSourceIsNotCalledAgain() throws {
        let loop = EventLoop()
        let first = Pipe(), second = Pipe()
        var calls = 0
        var secondToken: EventLoop.SourceToken?
        loop.addSource(fd: first.read, events: .readable) { _ in
            _ = first.receive()
            calls += 1
            loop.removeSource(secondToken!)
            loop.stop()
        }
        secondToken = loop.addSource(fd: second.read, events: .readable) { _ in Issue.record("removed source ran") }
        first.send(1)
        second.send(1)
        try loop.run()
        #expect(calls == 1)
    }

    @Test func timersFireInOrderAndRunReturnsWhenNothingIsLeft() throws {
        let loop = EventLoop()
        var fired: [String] = []
        let start = MonotonicInstant.now()
        loop.addTimer(at: start.advanced(byMilliseconds: 20)) { fired.append("late") }
        loop.addTimer(at: start.advanced(byMilliseconds: 5)) { fired.append("early") }
        let cancelled = loop.addTimer(at: start.advanced(byMilliseconds: 10)) { fired.append("cancelled") }
        loop.cancelTimer(cancelled)
        try loop.run()
        let elapsed = MonotonicInstant.now().nanoseconds - start.nanoseconds
        #expect(fired == ["early", "late"])
        #expect(elapsed >= 20_000_000)
        #expect(elapsed < 10_000_000_000, "returns once the timer fires, not never")
    }

    // On the system clock the wait ends at a timer through the epoll set's timerfd, set only when
    // the earliest deadline changes: these check that it follows every change and never leaves
    // the loop spinning on a timer that already fired.

    @Test func aTimerMovedEarlierFiresAtItsNewDeadline() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        loop.addSource(fd: pipe.read, events: .readable) { _ in }
        var fired = 0
        let timer = loop.makeTimer { fired += 1 }
        loop.schedule(timer, afterMilliseconds: 5_000)
        try loop.runOnce(maximumWaitMilliseconds: 0)  // the timerfd is now set 5 s ahead
        loop.schedule(timer, afterMilliseconds: 20)
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 3_000) }
        #expect(fired == 1)
        #expect(waited >= 19 && waited < 2_000, "woke at the new deadline, not the old one (\(waited) ms)")
    }

    @Test func aCancelledTimerDoesNotEndTheWait() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        loop.addSource(fd: pipe.read, events: .readable) { _ in }
        var fired = false
        let timer = loop.addTimer(afterMilliseconds: 10) { fired = true }
        try loop.runOnce(maximumWaitMilliseconds: 0)
        loop.cancelTimer(timer)
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 60) }
        #expect(!fired)
        #expect(waited >= 50, "the timerfd was disarmed (\(waited) ms)")
    }

    @Test func afterATimerFiresTheLoopSleepsAgain() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        var reads = 0
        loop.addSource(fd: pipe.read, events: .readable) { _ in
            _ = pipe.receive()
            reads += 1
        }
        var fired = 0
        loop.addTimer(afterMilliseconds: 5) { fired += 1 }
        while fired == 0 { try loop.runOnce(maximumWaitMilliseconds: 1_000) }
        // The timerfd expired and was reported; nothing is scheduled now: a wait must block.
        var iterations = 0
        let waited = try milliseconds {
            while iterations < 1_000 {
                try loop.runOnce(maximumWaitMilliseconds: 30)
                iterations += 1
                if iterations == 2 { break }
            }
        }
        #expect(iterations == 2)
        #expect(waited >= 55, "each wait blocked for its 30 ms (\(waited) ms for two)")
        pipe.send(1)
        try loop.runOnce(maximumWaitMilliseconds: 1_000)
        #expect(reads == 1 && fired == 1)
    }

    @Test func aTimerScheduledAgainAtThePassedDeadlineFiresAtOnce() throws {
        let loop = EventLoop()
        var fired: [Int] = []
        let deadline = MonotonicInstant.now().advanced(byMilliseconds: 5)
        loop.addTimer(at: deadline) {
            fired.append(1)
            // The same instant the timerfd just expired at: it must be set again to fire.
            loop.addTimer(at: deadline) { fired.append(2) }
        }
        let waited = try milliseconds { try loop.run() }
        #expect(fired == [1, 2])
        #expect(waited < 2_000)
    }

    @Test func deadlinesAtTheEndsOfTheClockNeitherFailNorSpin() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        loop.addSource(fd: pipe.read, events: .readable) { _ in }
        var fired: [String] = []
        let far = loop.makeTimer { fired.append("far") }
        loop.schedule(far, at: MonotonicInstant(nanoseconds: .max))
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 30) }
        #expect(fired.isEmpty)
        #expect(waited >= 25, "a deadline at the clock's end does not end the wait (\(waited) ms)")
        loop.schedule(far, afterMilliseconds: 1e300)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        // The clock's very start (0 would disarm the timerfd): long past, so at once.
        loop.addTimer(at: MonotonicInstant(nanoseconds: 0)) { fired.append("start") }
        let atOnce = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 2_000) }
        #expect(fired == ["start"])
        #expect(atOnce < 1_000, "a deadline long past ends the wait at once (\(atOnce) ms)")
    }

    /// A timer with leeway, moved later within it (a watchdog moved every frame), leaves the
    /// timerfd as it is; moved past it, or earlier than what is set, it sets it again.
    @Test func aTimerMovedWithinItsLeewayKeepsTheWakeUpSet() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        loop.addSource(fd: pipe.read, events: .readable) { _ in }
        let timer = loop.makeTimer {}
        let start = MonotonicInstant.now()
        loop.schedule(timer, at: start.advanced(byMilliseconds: 1_000), leewayMilliseconds: 100)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        let sets = loop.deadlineTimerSets
        #expect(sets == 1)
        // Set at 1100 ms: 1050 ms with 100 ms of leeway still contains it.
        loop.schedule(timer, at: start.advanced(byMilliseconds: 1_050), leewayMilliseconds: 100)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        #expect(loop.deadlineTimerSets == sets, "moved within its leeway: no new setting")
        // 1150 ms is past 1100 ms: set again (at 1250 ms).
        loop.schedule(timer, at: start.advanced(byMilliseconds: 1_150), leewayMilliseconds: 100)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        #expect(loop.deadlineTimerSets == sets + 1)
        // Earlier than what is set: set again, whatever the leeway.
        loop.schedule(timer, at: start.advanced(byMilliseconds: 500), leewayMilliseconds: 100)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        #expect(loop.deadlineTimerSets == sets + 2)
        // Another timer without leeway before the set instant bounds the window: set again.
        loop.addTimer(at: start.advanced(byMilliseconds: 520)) {}
        try loop.runOnce(maximumWaitMilliseconds: 0)
        #expect(loop.deadlineTimerSets == sets + 3)
    }

    /// Leeway lets a timer fire late, never early, and never later than its leeway allows.
    @Test func aTimerWithLeewayFiresWithinItsWindow() throws {
        let loop = EventLoop()
        var firedAt: MonotonicInstant?
        let timer = loop.makeTimer { firedAt = .now() }
        let start = MonotonicInstant.now()
        loop.schedule(timer, at: start.advanced(byMilliseconds: 200), leewayMilliseconds: 1_000)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        // Moved earlier than the set instant (1200 ms): set to this window's end, 60 + 40 ms.
        loop.schedule(timer, at: start.advanced(byMilliseconds: 60), leewayMilliseconds: 40)
        while firedAt == nil { try loop.runOnce(maximumWaitMilliseconds: 3_000) }
        let after = Double(firedAt!.nanoseconds(since: start)) / 1e6
        #expect(after >= 60 && after < 1_000, "within its window, not at the old setting (\(after) ms)")
    }

    /// Leeway that is not a finite positive number (NaN, negative, infinite) counts as none: the
    /// timer fires at its deadline. A huge finite one defers it as asked, until the loop wakes for
    /// something else (here a 2 s bound on the wait), and neither fails the timerfd nor fires it
    /// early.
    @Test(arguments: [Double.nan, -5, -Double.infinity, Double.infinity, 1e308, 0])
    func hostileLeewayStillFiresNoEarlierThanTheDeadline(leeway: Double) throws {
        let loop = EventLoop()
        var firedAt: MonotonicInstant?
        let timer = loop.makeTimer { firedAt = .now() }
        let deadline = MonotonicInstant.now().advanced(byMilliseconds: 20)
        loop.schedule(timer, at: deadline, leewayMilliseconds: leeway)
        try loop.runOnce(maximumWaitMilliseconds: 0)
        #expect(firedAt == nil)
        // Whatever the leeway, a wait bounded by 2 s ends with the timer fired, not before its deadline.
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 2_000) }
        if leeway == 1e308 {
            // Deferred as asked: the timerfd did not end the wait; the timer, due by then, fired
            // when the wait ran out.
            #expect(waited >= 1_900 && waited <= 2_500, "the wait ran to its bound (\(waited) ms)")
            #expect(firedAt.map { $0 >= deadline } == true)
        } else {
            #expect(firedAt.map { $0 >= deadline } == true, "fired at its deadline, not before (\(waited) ms)")
            #expect(waited < 1_000)
        }
    }

    @Test func aThrowingHandlerStopsTheLoopWithItsError() {
        let loop = EventLoop()
        let pipe = Pipe()
        loop.addSource(fd: pipe.read, events: .readable) { _ in throw Boom() }
        pipe.send(1)
        #expect(throws: Boom()) { try loop.run() }
    }

    @Test func closedFdIsReportedInvalidAndRemoved() throws {
        let loop = EventLoop()
        // A number no test opens (tests run in parallel in one process: a freshly closed fd
        // number may already belong to another test).
        let closed: Int32 = 60_000
        #expect(fcntl(closed, F_GETFD) == -1)
        var seen: EventLoop.Events = []
        loop.addSource(fd: closed, events: .readable) { seen = $0 }
        try loop.run()  // returns: the only source was removed after reporting POLLNVAL
        #expect(seen.contains(.invalid))
    }

    @Test func blockedSignalArrivesThroughTheLoop() throws {
        let loop = EventLoop()
        var signals: [Int32] = []
        loop.addSignalSource(try SignalDescriptor(blocking: [SIGUSR1, SIGUSR2])) { signal in
            signals.append(signal)
            loop.stop()
        }
        // raise() targets this thread, where the signal is now blocked: it waits in the signalfd.
        raise(SIGUSR2)
        try loop.run()
        #expect(signals == [SIGUSR2])
    }

    @Test func monotonicInstantArithmetic() {
        let t = MonotonicInstant(nanoseconds: 100)
        #expect(t.advanced(byNanoseconds: -200).nanoseconds == 0)
        #expect(t.advanced(byMilliseconds: 1).nanoseconds == 1_000_100)
        #expect(t < t.advanced(byNanoseconds: 1))
        #expect(t.advanced(byNanoseconds: .max).advanced(byNanoseconds: .max).nanoseconds == .max, "saturates, never traps")
        #expect(t.advanced(byMilliseconds: .infinity).nanoseconds >= UInt64(Int64.max))
        #expect(t.advanced(byMilliseconds: -.infinity).nanoseconds == 0)
        #expect(t.advanced(byMilliseconds: .nan) == t)
        #expect(t.nanoseconds(since: t.advanced(byNanoseconds: 50)) == 0)
    }

    /// Timers run on the loop's clock: a manual clock makes their order and deadlines exact.
    @Test func timersFollowAnInjectedClock() throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        var fired: [String] = []
        loop.addTimer(afterMilliseconds: 16) { fired.append("16") }
        loop.addTimer(afterMilliseconds: 5) {
            fired.append("5")
            // Added by a handler with a deadline already due: waits for the next iteration.
            loop.addTimer(afterMilliseconds: 0) { fired.append("added") }
        }
        try loop.runOnce()
        #expect(fired == [], "nothing is due before the clock moves")
        clock.advance(byMilliseconds: 5)
        try loop.runOnce()
        #expect(fired == ["5"])
        try loop.runOnce()
        #expect(fired == ["5", "added"])
        clock.advance(byMilliseconds: 100)
        try loop.runOnce()
        #expect(fired == ["5", "added", "16"])
        #expect(loop.timerCount == 0, "an idle loop holds no timer")
    }

    /// A timer cancelled by an earlier timer of the same round does not fire.
    @Test func timerCancelledInTheSameRoundDoesNotFire() throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        var fired: [String] = []
        var second: EventLoop.Timer?
        loop.addTimer(afterMilliseconds: 1) {
            fired.append("first")
            loop.cancelTimer(second!)
        }
        second = loop.addTimer(afterMilliseconds: 2) { fired.append("second") }
        clock.advance(byMilliseconds: 10)
        try loop.runOnce()
        #expect(fired == ["first"])
    }

    /// stop() before run() (a sink that failed on the very first value) is not forgotten.
    @Test func stopBeforeRunReturnsAtOnce() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        loop.addSource(fd: pipe.read, events: .readable) { _ in Issue.record("ran") }
        loop.stop()
        try loop.run()
        // And the next run runs again.
        loop.addTimer(afterMilliseconds: 1) { loop.stop() }
        try loop.run()
    }

    /// A source that does not resolve POLLERR is called again at once: the rule every sink obeys
    /// (read the error off, or stop polling). Here a pipe whose reader is gone.
    @Test func errorConditionsAreReportedEvenWhenNotAskedFor() throws {
        let loop = EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        var calls = 0
        var seen: EventLoop.Events = []
        var token: EventLoop.SourceToken?
        token = loop.addSource(fd: fds[1], events: []) { events in
            seen = events
            calls += 1
            loop.removeSource(token!)
        }
        try loop.run()
        #expect(calls == 1)
        #expect(seen.contains(.error))
    }

    /// Sources on one descriptor share one registration; each hears only what it asked for, and
    /// all of them hear the hang-up.
    @Test func sourcesOnOneDescriptorEachGetWhatTheyAskedFor() throws {
        let loop = EventLoop()
        let socket = SocketPair()
        var reads: [EventLoop.Events] = [], writes: [EventLoop.Events] = [], quiet: [EventLoop.Events] = []
        let reader = loop.addSource(fd: socket.mine, events: .readable) { events in
            reads.append(events)
            if events == .readable { _ = socket.receive() }  // not at the hang-up: nothing to read
        }
        let writer = loop.addSource(fd: socket.mine, events: .writable) { writes.append($0) }
        let listener = loop.addSource(fd: socket.mine, events: []) { quiet.append($0) }

        try loop.runOnce()
        #expect(reads == [] && writes == [.writable] && quiet == [], "writable, not readable yet")
        socket.send(1)
        try loop.runOnce()
        #expect(reads == [.readable], "no .writable for the reader, which did not ask for it")
        #expect(writes == [.writable, .writable] && quiet == [])

        // The registration stays for the sources left.
        loop.removeSource(writer)
        socket.send(2)
        try loop.runOnce()
        #expect(reads == [.readable, .readable] && writes.count == 2)

        socket.hangUp()
        try loop.runOnce()
        #expect(reads.last?.contains(.hangup) == true)
        #expect(quiet.count == 1 && quiet[0].contains(.hangup) && !quiet[0].contains(.writable))
        loop.removeSource(reader)
        loop.removeSource(listener)
    }

    /// Events that change between waits take effect at the next one, both ways (the sinks ask for
    /// `.writable` only while they have bytes waiting).
    @Test func eventsChangeFromNothingToWritableAndBack() throws {
        let loop = EventLoop()
        let socket = SocketPair()
        var calls: [EventLoop.Events] = []
        let token = loop.addSource(fd: socket.mine, events: []) { calls.append($0) }
        try loop.runOnce()
        #expect(calls == [], "writable, but not asked")
        loop.setEvents(.writable, for: token)
        try loop.runOnce()
        try loop.runOnce()
        #expect(calls == [.writable, .writable], "level-triggered: reported again while it lasts")
        loop.setEvents([], for: token)
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 30) }
        #expect(calls.count == 2)
        #expect(waited >= 25, "nothing asked: the wait ran its course")
    }

    /// A prepared source (the Wayland display) prepares before every wait and completes after it,
    /// first and even with no events; it is told only what its prepare asked for, while another
    /// source on its descriptor (libdecor's) hears what it asked for.
    @Test func preparedSourceCompletesAfterEveryWaitFirst() throws {
        let loop = EventLoop()
        let socket = SocketPair()
        var order: [String] = []
        var asked: EventLoop.Events = []
        var completed: [EventLoop.Events] = []
        loop.addSource(fd: socket.mine, events: .readable) { events in
            order.append("shared")
            #expect(events == .readable)
            _ = socket.receive()
        }
        loop.addSource(fd: socket.mine, prepare: {
            order.append("prepare")
            return asked
        }, handler: { events in
            order.append("complete")
            completed.append(events)
        })

        try loop.runOnce()
        #expect(order == ["prepare", "complete"] && completed == [[]], "completes with no events")
        socket.send(1)
        order = []
        try loop.runOnce()
        #expect(order == ["prepare", "complete", "shared"], "prepared first though added last")
        #expect(completed.last == [], "readable, but its prepare did not ask")
        asked = [.readable, .writable]
        socket.send(2)
        try loop.runOnce()
        #expect(completed.last == [.readable, .writable])
    }

    /// A handler that removes the other source on its descriptor: that one is not called, and the
    /// descriptor stays watched for the one left.
    @Test func sourceRemovedDuringDispatchOnASharedDescriptorIsNotCalled() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        var first = 0
        var second: EventLoop.SourceToken?
        loop.addSource(fd: pipe.read, events: .readable) { _ in
            first += 1
            _ = pipe.receive()
            if let token = second { loop.removeSource(token) }
            second = nil
        }
        second = loop.addSource(fd: pipe.read, events: .readable) { _ in Issue.record("removed source ran") }
        pipe.send(1)
        try loop.runOnce()
        pipe.send(2)
        try loop.runOnce()
        #expect(first == 2)
    }

    /// A source that leaves before its descriptor is replaced (the exec hook's pidfd): a new
    /// source on the same number watches the new file.
    @Test func aNumberReusedAfterItsSourceWentIsWatchedAnew() throws {
        let loop = EventLoop()
        let old = Pipe(), new = Pipe()
        var heard: [UInt8] = []
        var token: EventLoop.SourceToken?
        token = loop.addSource(fd: old.read, events: .readable) { _ in
            heard.append(old.receive())
            loop.removeSource(token!)
            // dup2 replaces the file behind the number at once (closing first could let a test
            // running alongside take the number).
            #expect(dup2(new.read, old.read) == old.read)
            loop.addSource(fd: old.read, events: .readable) { _ in
                heard.append(old.receive())
                loop.stop()
            }
        }
        old.send(1)
        new.send(2)
        try loop.run()
        #expect(heard == [1, 2])
    }

    /// A number that is not open is reported `.invalid` at the next iteration to every source on
    /// it, whatever they asked for, without waiting; they are removed, and the others go on.
    @Test func badDescriptorIsReportedAtTheNextIterationWithoutWaiting() throws {
        let loop = EventLoop()
        let closed: Int32 = 60_001
        #expect(fcntl(closed, F_GETFD) == -1)
        let pipe = Pipe()
        var reports: [EventLoop.Events] = []
        loop.addSource(fd: closed, events: .readable) { reports.append($0) }
        loop.addSource(fd: closed, events: []) { reports.append($0) }
        var read = 0
        loop.addSource(fd: pipe.read, events: .readable) { _ in
            _ = pipe.receive()
            read += 1
        }
        #expect(reports == [], "reported by the loop, not by addSource")
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 5_000) }
        #expect(reports == [.invalid, .invalid])
        #expect(waited < 2_500, "an invalid descriptor does not wait")
        #expect(loop.sourceCount == 1)
        pipe.send(1)
        try loop.runOnce(maximumWaitMilliseconds: 5_000)
        #expect(reports.count == 2, "removed")
        #expect(read == 1)
    }

    /// Files epoll refuses (`/dev/null` here; regular files too) are ready at once for what is
    /// asked, as poll reports them, and wake nothing when nothing is asked.
    @Test func filesEpollCannotWatchAreAlwaysReady() throws {
        let loop = EventLoop()
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC), output = open("/dev/null", O_WRONLY | O_CLOEXEC)
        #expect(input >= 0 && output >= 0)
        defer { close(input); close(output) }
        var inputEvents: [EventLoop.Events] = [], outputEvents: [EventLoop.Events] = []
        let reader = loop.addSource(fd: input, events: .readable) { inputEvents.append($0) }
        let writer = loop.addSource(fd: output, events: []) { outputEvents.append($0) }
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 5_000) }
        #expect(inputEvents == [.readable] && outputEvents == [])
        #expect(waited < 2_500)
        loop.removeSource(reader)
        loop.setEvents(.writable, for: writer)
        try loop.runOnce(maximumWaitMilliseconds: 5_000)
        #expect(outputEvents == [.writable])
        loop.setEvents([], for: writer)
        let idle = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 30) }
        #expect(idle >= 25 && outputEvents.count == 1)
    }

    /// Against the rule, a descriptor replaced while its source watches it, the old file kept open
    /// elsewhere: epoll keeps reporting the old file under the number; removing the source then
    /// must not leave that registration behind to wake the loop again and again.
    @Test func anOrphanedRegistrationDoesNotMakeTheLoopSpin() throws {
        let loop = EventLoop()
        let watched = Pipe(), replacement = Pipe()
        let keptOpen = dup(watched.read)
        defer { close(keptOpen) }
        watched.send(1)  // readable, and never read: level-triggered, it stays so
        var calls = 0
        var replaced = false
        var token: EventLoop.SourceToken?
        token = loop.addSource(fd: watched.read, events: .readable) { _ in
            calls += 1
            if replaced { loop.removeSource(token!) }
        }
        try loop.runOnce()
        #expect(calls == 1)
        // dup2, not close: a test running alongside cannot take the number in between.
        #expect(dup2(replacement.read, watched.read) == watched.read)
        replaced = true
        try loop.runOnce()
        #expect(calls == 2, "the old file, still readable through another descriptor, is reported")
        #expect(loop.sourceCount == 0)
        let waited = try milliseconds { try loop.runOnce(maximumWaitMilliseconds: 50) }
        #expect(waited >= 40, "the orphaned registration went with the old epoll set")
        #expect(calls == 2)
    }

    /// Against the rule, a descriptor replaced while watched with nothing else holding the old file:
    /// epoll forgets it silently; the next change of its events finds out and reports `.invalid`.
    @Test func aDescriptorReplacedWhileWatchedIsInvalidOnceItsEventsChange() throws {
        let loop = EventLoop()
        let watched = Pipe(), replacement = Pipe()
        var reports: [EventLoop.Events] = []
        let token = loop.addSource(fd: watched.read, events: .readable) { reports.append($0) }
        try loop.runOnce()
        #expect(dup2(replacement.read, watched.read) == watched.read)
        replacement.send(1)
        try loop.runOnce(maximumWaitMilliseconds: 20)
        #expect(reports == [], "the new file behind the number is not watched")
        loop.setEvents([], for: token)
        try loop.runOnce(maximumWaitMilliseconds: 5_000)
        #expect(reports == [.invalid])
        #expect(loop.sourceCount == 0)
    }
}
