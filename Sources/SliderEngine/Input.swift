/// What presses the slider: the pointer, or one touch point by its id. Pointer and touch share the
/// one gesture the slider tracks at a time.
public enum Contact: Sendable, Hashable {
    case pointer
    case touch(Int32)
}

/// The keys the slider understands, already translated from keysyms by the caller.
public enum SliderKey: Sendable, Hashable, CaseIterable {
    /// Right or Up arrow: one step up.
    case increment
    /// Left or Down arrow: one step down.
    case decrement
    /// Page Up: a page fraction up.
    case pageUp
    /// Page Down: a page fraction down.
    case pageDown
    /// Home: to the minimum.
    case home
    /// End: to the maximum.
    case end
}

/// A scroll axis, as in `wl_pointer.axis`.
public enum ScrollAxis: Sendable, Hashable {
    /// Positive values scroll down: they lower the value.
    case vertical
    /// Positive values scroll right: they raise the value.
    case horizontal
}

/// One input event, in logical surface coordinates. The time of each event is passed alongside it.
public enum SliderInput: Sendable, Equatable {
    /// A button press or touch down.
    case press(Contact, SliderPoint)
    /// Pointer motion or touch motion.
    case move(Contact, SliderPoint)
    /// A button release or touch up.
    case release(Contact)
    /// The gesture in progress is cancelled (`wl_touch.cancel`): the value glides back to where
    /// it was before the gesture began.
    case cancel
    /// A key press; `isRepeat` for key repeat.
    case key(SliderKey, isRepeat: Bool)
    /// Wheel rotation in 1/120 detent units (`wl_pointer.axis_value120`).
    case wheel(value120: Int, axis: ScrollAxis)
    /// Continuous (touchpad) scrolling in logical pixels.
    case scroll(pixels: Double, axis: ScrollAxis)
}

/// Where a gesture stands, as reported with each emitted value.
public enum GesturePhase: String, Sendable, CaseIterable {
    /// No gesture: the value moved by key, wheel, an outside command, or a glide's tail.
    case idle
    /// A press landed on the slider.
    case began
    /// The value moved during a gesture.
    case moved
    /// The gesture ended (release).
    case ended
    /// The gesture was cancelled.
    case cancelled
}

/// One value of the emitted stream: the presented value at a frame's time.
public struct ValueSample: Sendable, Equatable, CustomStringConvertible {
    /// Seconds, on the caller's clock.
    public var time: Double
    public var value: Double
    public var phase: GesturePhase

    public init(time: Double, value: Double, phase: GesturePhase) {
        self.time = time; self.value = value; self.phase = phase
    }

    public var description: String { "\(time): \(value) (\(phase.rawValue))" }
}
