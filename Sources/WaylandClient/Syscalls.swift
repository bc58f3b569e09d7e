// The raw libc calls of this module that are not Wayland: one place for EINTR handling and fd ownership.
internal import Glibc

/// An open file descriptor owned by exactly one value: closed when that value goes away.
struct OwnedFileDescriptor: ~Copyable {
    /// The descriptor number; valid while this value lives.
    let rawValue: Int32

    init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit {
        _ = Glibc.close(rawValue)
    }
}

/// Runs a system call until it does not fail with EINTR (a signal arrived mid-call).
func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result != -1 || errno != EINTR { return result }
    }
}

/// The calling thread's errno (a function so call sites read as what they mean).
func lastErrno() -> Int32 { errno }

/// Reads the 8-byte expiration count of a timerfd; 0 if it has not expired (EAGAIN).
func readTimerExpirations(_ fd: Int32) -> UInt64 {
    var count: UInt64 = 0
    let n = retryingInterrupts { read(fd, &count, MemoryLayout<UInt64>.size) }
    return n == MemoryLayout<UInt64>.size ? count : 0
}

/// The environment variable `name`, or nil when unset or empty.
func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}
