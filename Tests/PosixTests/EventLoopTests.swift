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
}
