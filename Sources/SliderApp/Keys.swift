import SliderEngine
import WaylandClient

extension SliderKey {
    /// The slider key for a keysym, or nil. Both arrow pairs work in either orientation: Right and
    /// Up raise the value, Left and Down lower it; the keypad's twins do the same.
    init?(keysym: UInt32) {
        switch keysym {
        case Keysym.right, Keysym.up, Keysym.keypadRight, Keysym.keypadUp: self = .increment
        case Keysym.left, Keysym.down, Keysym.keypadLeft, Keysym.keypadDown: self = .decrement
        case Keysym.pageUp, Keysym.keypadPageUp: self = .pageUp
        case Keysym.pageDown, Keysym.keypadPageDown: self = .pageDown
        case Keysym.home, Keysym.keypadHome: self = .home
        case Keysym.end, Keysym.keypadEnd: self = .end
        default: return nil
        }
    }
}
