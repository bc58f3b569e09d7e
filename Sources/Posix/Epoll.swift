// The epoll instance behind `EventLoop`: its raw calls, in poll(2) bits, and the buffer its waits
// fill. epoll's own types stay in CPosix (struct epoll_event is packed on x86_64).
internal import CPosix
internal import Glibc

/// An epoll instance (close-on-exec, closed with this object) and a reusable buffer for what one
/// wait reports. Level-triggered, like poll; each registration carries its descriptor number, so
/// a ready event names its descriptor. Calls retry EINTR and report other failures as `Errno`.
///
/// It can also end its waits at a deadline on `CLOCK_MONOTONIC` through a timerfd of its own in
/// the set, instead of a timeout on each wait. A timeout makes the kernel start and cancel a timer
/// at every wait, twice per animated frame; the timerfd is set only when the deadline changes
/// (once per frame while a frame callback is watched for lateness). A side-by-side run of a C
/// client showed the difference: +3 µs per frame with a 25 ms timeout on each wait, +1 µs with a
/// timerfd set once per frame.
final class Epoll {
    private let file: FileDescriptor
    private var buffer: UnsafeMutableRawPointer
    /// How many ready descriptors one wait can report.
    private(set) var capacity: Int
    /// The deadline timer (nil: waits end by timeout; owned, closed with this object), its
    /// descriptor number (-1 without), and what it is set to.
    private let deadlineTimer: FileDescriptor?
    private let deadlineTimerNumber: Int32
    /// Once expired it stays readable until set again; its deadline has then passed, so the loop
    /// fires a timer and sets it to the next deadline or disarms it.
    private var deadline: MonotonicInstant?

    /// A new, empty instance with room for `capacity` ready descriptors per wait, and a deadline
    /// timer when `deadlines` (none when the system has no timerfd: waits then take timeouts).
    init(capacity: Int, deadlines: Bool = false) throws(Errno) {
        let fd = cposix_epoll_create()
        guard fd >= 0 else { throw Errno.current }
        file = FileDescriptor(owning: fd)
        self.capacity = Swift.max(capacity, 1) + (deadlines ? 1 : 0)
        buffer = Epoll.allocate(self.capacity)
        var timerNumber: Int32 = -1
        if deadlines {
            timerNumber = cposix_timerfd_create()
            if timerNumber >= 0 && cposix_epoll_add(fd, timerNumber, PollEvents.readable.rawValue) != 0 {
                close(timerNumber)
                timerNumber = -1
            }
        }
        deadlineTimerNumber = timerNumber
        deadlineTimer = timerNumber >= 0 ? FileDescriptor(owning: timerNumber) : nil
    }

    /// Whether waits end at the deadline of `wake(at:)` (else they take a timeout).
    var wakesAtDeadlines: Bool { deadlineTimerNumber >= 0 }

    /// Ends the coming waits within `window` (nil: never) on `CLOCK_MONOTONIC`, at once when it
    /// has passed; `event(at:)` reports it as descriptor -1. A system call only when the instant
    /// set is not in the window any more: then it is set to the window's end, which the most
    /// later windows still contain.
    func wake(within window: ClosedRange<MonotonicInstant>?) throws(Errno) {
        guard deadlineTimerNumber >= 0 else { return }
        guard let window else {
            if deadline != nil { try arm(nil) }
            return
        }
        if let deadline, window.contains(deadline) { return }
        try arm(window.upperBound)
    }

    private func arm(_ instant: MonotonicInstant?) throws(Errno) {
        // 0 would disarm it: an instant at the clock's very start is as past as 1 ns.
        let nanoseconds = instant.map { Swift.max($0.nanoseconds, 1) } ?? 0
        guard cposix_timerfd_arm(deadlineTimerNumber, nanoseconds) == 0 else { throw Errno.current }
        deadline = instant
        timerSets &+= 1
    }

    /// How many times the deadline timer was set or disarmed (for tests).
    private(set) var timerSets = 0

    deinit {
        buffer.deallocate()
    }

    /// Makes room for `count` ready descriptors per wait: with room for every registered one, a
    /// wait reports all that are ready, as poll does. Allocates only when it grows.
    func reserve(_ count: Int) {
        let count = count + (wakesAtDeadlines ? 1 : 0)
        guard count > capacity else { return }
        buffer.deallocate()
        capacity = Swift.max(count, capacity * 2)
        buffer = Epoll.allocate(capacity)
    }

    /// Watches `fd` for `events` (`.readable`, `.writable`; errors and hang-ups come anyway).
    /// EPERM: a file epoll cannot watch (a regular file, /dev/null); EBADF: not open.
    func add(_ fd: Int32, for events: PollEvents) throws(Errno) {
        _ = try retryingInterrupts { cposix_epoll_add(file.rawValue, fd, events.rawValue) }.get()
    }

    /// Changes the events `fd` is watched for. ENOENT: this `fd` is not the file it watched
    /// (closed, and the number reused); EBADF: not open any more.
    func modify(_ fd: Int32, for events: PollEvents) throws(Errno) {
        _ = try retryingInterrupts { cposix_epoll_modify(file.rawValue, fd, events.rawValue) }.get()
    }

    /// Stops watching `fd`. Fails (EBADF, ENOENT) when `fd` was closed while watched.
    func remove(_ fd: Int32) throws(Errno) {
        _ = try retryingInterrupts { cposix_epoll_remove(file.rawValue, fd) }.get()
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and returns how many descriptors are ready;
    /// `event(at:)` tells which.
    func wait(timeoutMilliseconds: Int32) throws(Errno) -> Int {
        let count = Int32(clamping: capacity)
        return Int(try retryingInterrupts { cposix_epoll_wait(file.rawValue, buffer, count, timeoutMilliseconds) }.get())
    }

    /// Ready descriptor `index` (below what the last `wait` returned) and its events; -1 for the
    /// deadline timer.
    func event(at index: Int) -> (fd: Int32, events: PollEvents) {
        var fd: Int32 = -1
        let events = cposix_epoll_ready(buffer, Int32(index), &fd)
        return (fd == deadlineTimerNumber ? -1 : fd, PollEvents(rawValue: events))
    }

    private static func allocate(_ count: Int) -> UnsafeMutableRawPointer {
        .allocate(byteCount: count * cposix_epoll_event_size(), alignment: MemoryLayout<UInt64>.alignment)
    }
}
