// A timerfd: a periodic kernel timer whose expirations a poll loop reads as a count.
internal import CPosix
internal import Glibc

/// A non-blocking `CLOCK_MONOTONIC` timerfd. Readable when it has expired; `takeExpirations()`
/// says how often since the last read (a late loop gets the count, not a burst of wake-ups).
public struct IntervalTimer: ~Copyable {
    /// The timerfd.
    public let file: FileDescriptor

    /// Creates a disarmed timer.
    public init() throws(Errno) {
        let fd = cposix_timerfd_create()
        guard fd >= 0 else { throw Errno.current }
        file = FileDescriptor(owning: fd)
    }

    /// First expiry after `initialNanoseconds` (at least 1: 0 would disarm), then every
    /// `intervalNanoseconds` (0: once).
    public func arm(initialNanoseconds: UInt64, intervalNanoseconds: UInt64) {
        _ = cposix_timerfd_arm(file.rawValue, Swift.max(initialNanoseconds, 1), intervalNanoseconds)
    }

    /// Stops it.
    public func disarm() {
        _ = cposix_timerfd_arm(file.rawValue, 0, 0)
    }

    /// The number of expirations since the last call; 0 when none (EAGAIN).
    public func takeExpirations() -> UInt64 {
        var count: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &count) { try? file.descriptor.read(into: $0) }
        return n == MemoryLayout<UInt64>.size ? count : 0
    }
}
