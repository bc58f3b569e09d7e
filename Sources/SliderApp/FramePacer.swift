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
}
