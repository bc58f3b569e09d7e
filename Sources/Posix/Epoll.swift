// The epoll instance behind `EventLoop`: its raw calls, in poll(2) bits, and the buffer its waits
// fill. epoll's own types stay in CPosix (struct epoll_event is packed on x86_64).
internal import CPosix

/// An epoll instance (close-on-exec, closed with this object) and a reusable buffer for what one
/// wait reports. Level-triggered, like poll; each registration carries its descriptor number, so
/// a ready event names its descriptor. Calls retry EINTR and report other failures as `Errno`.
final class Epoll {
    private let file: FileDescriptor
    private var buffer: UnsafeMutableRawPointer
    /// How many ready descriptors one wait can report.
    private(set) var capacity: Int

    /// A new, empty instance with room for `capacity` ready descriptors per wait.
    init(capacity: Int) throws(Errno) {
        let fd = cposix_epoll_create()
        guard fd >= 0 else { throw Errno.current }
        file = FileDescriptor(owning: fd)
        self.capacity = Swift.max(capacity, 1)
        buffer = Epoll.allocate(self.capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// Makes room for `count` ready descriptors per wait: with room for every registered one, a
    /// wait reports all that are ready, as poll does. Allocates only when it grows.
    func reserve(_ count: Int) {
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

    /// Ready descriptor `index` (below what the last `wait` returned) and its events.
    func event(at index: Int) -> (fd: Int32, events: PollEvents) {
        var fd: Int32 = -1
        let events = cposix_epoll_ready(buffer, Int32(index), &fd)
        return (fd, PollEvents(rawValue: events))
    }

    private static func allocate(_ count: Int) -> UnsafeMutableRawPointer {
        .allocate(byteCount: count * cposix_epoll_event_size(), alignment: MemoryLayout<UInt64>.alignment)
    }
}
