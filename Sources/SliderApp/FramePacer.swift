/// Decides when to draw, in the manner of foot's renderer: input only marks the slider dirty; a
/// frame is drawn at once when no frame callback is pending, otherwise when it arrives; the next
/// callback is requested only while something animates. Pure: the controller asks it and obeys.
struct FramePacer: Sendable, Equatable {
    /// A frame callback has been requested and not yet answered.
    private(set) var callbackPending = false
    /// Something changed since the last drawn frame.
    private(set) var dirty = false
    /// The last frame drawn was not the last one: an animation runs (or a frame is owed).
    private(set) var animating = false

    /// Marks the slider changed. Returns true when the app should draw right away.
    mutating func markDirty() -> Bool {
        dirty = true
        return !callbackPending
    }

    /// The compositor answered the frame callback. Returns true when the app should draw now:
    /// something changed, or an animation runs (its next frame, or the one that shows where it
    /// ended).
    mutating func frameDone() -> Bool {
        callbackPending = false
        return dirty || animating
    }

    /// The app drew (or decided there was nothing to draw). `requestedCallback`: a frame callback
    /// was asked for with this commit; `animating`: more frames are wanted.
    mutating func drew(requestedCallback: Bool, animating: Bool) {
        dirty = false
        self.animating = animating
        if requestedCallback { callbackPending = true }
    }
}
