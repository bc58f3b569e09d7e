/// Decides when to draw, in the manner of foot's renderer: input only marks the slider dirty; a
/// frame is drawn at once when no frame callback is pending, otherwise when it arrives; the next
/// callback is requested only while something animates. Pure: the app performs the actions.
struct FramePacer: Sendable, Equatable {
    /// A frame callback has been requested and not yet answered.
    private(set) var callbackPending = false
    /// Something changed since the last drawn frame.
    private(set) var dirty = false

    /// Marks the slider changed. Returns true when the app should draw right away.
    mutating func markDirty() -> Bool {
        dirty = true
        return !callbackPending
    }

    /// The compositor answered the frame callback. Returns true when the app should draw now.
    mutating func frameDone() -> Bool {
        callbackPending = false
        return dirty
    }

    /// The app drew (or decided there was nothing to draw). `animating`: more frames are wanted,
    /// so a callback was requested with this commit.
    mutating func drew(requestedCallback: Bool) {
        dirty = false
        if requestedCallback { callbackPending = true }
    }

    /// Forget a callback that can never arrive (the surface was re-created or the buffer lost).
    mutating func reset() {
        callbackPending = false
    }
}

/// Maps frame-callback timestamps onto the engine's clock.
///
/// `wl_callback.done` carries milliseconds on an unspecified base; every compositor seen here
/// (weston, sway, KWin, mutter) uses CLOCK_MONOTONIC, as wlslider does. When a timestamp agrees
/// with the app's own monotonic clock within a second (modulo the 32-bit wrap), the compositor's
/// presentation time is used; otherwise the app's clock.
struct FrameClock: Sendable {
    /// Seconds since the app started for a frame callback timestamp, given the current monotonic
    /// time in seconds (`now`) and the monotonic time at start (`origin`).
    static func frameTime(callbackMilliseconds ms: UInt32, now: Double, origin: Double) -> Double {
        let nowMs = UInt32(truncatingIfNeeded: Int64((now * 1000).rounded(.down)))
        let ahead = Int32(bitPattern: ms &- nowMs)  // signed difference, wrap-safe
        guard abs(Int(ahead)) <= 1000 else { return now - origin }
        return min(now + Double(ahead) / 1000, now) - origin
    }
}
