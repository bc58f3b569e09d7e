// The input the Wayland layer hands to the app: plain Swift values, decoded from wl_touch, wl_pointer
// and wl_keyboard and batched per protocol frame. Coordinates are surface-local logical pixels as
// Doubles (wl_fixed_t has 1/256 px resolution; nothing is truncated).

/// One touch event. A batch (`[TouchEvent]`) holds what the compositor grouped into one
/// `wl_touch.frame`; `.cancel` always comes alone.
public enum TouchEvent: Equatable, Sendable {
    /// A finger touched the surface. `id` is reused after its `up`.
    case down(id: Int32, x: Double, y: Double, time: UInt32)
    /// A finger that went down on this surface moved (coordinates may lie outside the surface).
    case motion(id: Int32, x: Double, y: Double, time: UInt32)
    /// A finger lifted.
    case up(id: Int32, time: UInt32)
    /// Every active touch point is gone without an `up`: end the gesture and undo what it did.
    case cancel(TouchCancelReason)
}

/// Why touch points were cancelled.
public enum TouchCancelReason: Equatable, Sendable {
    /// `wl_touch.cancel`: the compositor took the touch sequence (e.g. for a global gesture).
    case compositor
    /// The seat lost its touch capability (or the seat went away) while fingers were down.
    case deviceRemoved
}

/// Which scroll axis.
public enum PointerAxis: Equatable, Hashable, Sendable {
    /// Vertical scroll (positive = down).
    case vertical
    /// Horizontal scroll (positive = right).
    case horizontal
}

/// Where scroll events come from (`wl_pointer.axis_source`).
public enum AxisSource: Equatable, Sendable {
    /// A scroll wheel with detents.
    case wheel
    /// A finger on a touchpad: ends with a scroll stop (kinetic scrolling may follow in the app).
    case finger
    /// A continuous device without detents (e.g. a trackpoint).
    case continuous
    /// A wheel tilted sideways.
    case wheelTilt
    /// Not told (seat version < 5).
    case unknown
}

/// A button transition.
public enum ButtonState: Equatable, Sendable {
    /// Went down.
    case pressed
    /// Went up.
    case released
}

/// One pointer event. A batch (`[PointerEvent]`) holds what the compositor grouped into one
/// `wl_pointer.frame` (seat version ≥ 5; older seats deliver each event alone). Scroll events of a
/// frame come after its other events, at most one per axis (plus a stop).
public enum PointerEvent: Equatable, Sendable {
    /// The pointer entered the surface at (x, y). The cursor was set on enter.
    case enter(x: Double, y: Double)
    /// The pointer left the surface. A button held now will not report its release here.
    case leave
    /// The pointer moved to (x, y).
    case motion(x: Double, y: Double, time: UInt32)
    /// A button (Linux input code, e.g. `PointerEvent.leftButton` = BTN_LEFT 0x110) changed state.
    case button(button: UInt32, state: ButtonState, time: UInt32)
    /// Wheel movement in 120ths of a detent (120 = one click; high-resolution wheels send parts).
    /// From `axis_value120`, else `axis_discrete` × 120; the engine turns them into detents.
    case wheel(axis: PointerAxis, value120: Int32, source: AxisSource, time: UInt32)
    /// Continuous scroll distance in logical pixels (touchpad, or a wheel on a seat older than 5).
    case scroll(axis: PointerAxis, pixels: Double, source: AxisSource, time: UInt32)
    /// `axis_stop`: a scroll sequence on this axis ended (the finger left the touchpad).
    case scrollStop(axis: PointerAxis, time: UInt32)
    /// The seat lost its pointer (or went away): any press in progress is over, no release will come.
    case deviceRemoved

    /// BTN_LEFT from linux/input-event-codes.h.
    public static let leftButton: UInt32 = 0x110
}

/// What happened to a key.
public enum KeyState: Equatable, Sendable {
    /// Went down.
    case pressed
    /// Went up.
    case released
    /// Key repeat (from `wl_keyboard.repeat_info`, timed by the Wayland layer) while it is held.
    case repeated
}

/// The modifiers active when a key event happened.
public struct Modifiers: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt8
    /// Wraps bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Shift.
    public static let shift = Modifiers(rawValue: 1 << 0)
    /// Control.
    public static let control = Modifiers(rawValue: 1 << 1)
    /// Alt (Mod1).
    public static let alt = Modifiers(rawValue: 1 << 2)
    /// The "Windows"/Super key (Mod4).
    public static let logo = Modifiers(rawValue: 1 << 3)
}

/// One keyboard event, delivered only to the surface with keyboard focus.
public enum KeyboardEvent: Equatable, Sendable {
    /// The surface got keyboard focus.
    case enter
    /// The surface lost keyboard focus (repeat stopped).
    case leave
    /// A key: its keysym under the current layout and modifiers (see `Keysym`), its evdev code.
    case key(keysym: UInt32, code: UInt32, state: KeyState, modifiers: Modifiers, time: UInt32)
    /// The modifier state changed.
    case modifiers(Modifiers)
    /// The seat lost its keyboard (or went away): focus is gone, repeat stopped.
    case deviceRemoved
}
