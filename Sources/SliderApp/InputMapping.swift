import SliderEngine
import WaylandClient

/// Turns decoded Wayland input into slider input. Pure: keeps only the pointer's position (pointer
/// buttons carry none) and which contact drives the gesture.
struct InputMapping: Sendable {
    private var pointerPosition: SliderPoint?
    /// The touch points down on the surface, whether or not the engine follows them: a second
    /// finger is no part of the gesture, but it is a hand on the slider all the same.
    private(set) var touchPointsDown: Set<Int32> = []

    /// Follows which touch points are down through one `wl_touch.frame` batch.
    mutating func followTouchPoints(_ batch: [TouchEvent]) {
        for event in batch {
            switch event {
            case let .down(id, _, _, _): touchPointsDown.insert(id)
            case let .up(id, _): touchPointsDown.remove(id)
            case .cancel: touchPointsDown.removeAll()
            case .motion: break
            }
        }
    }

    /// Hands `body` the slider input of each event of one `wl_touch.frame` batch, in order.
    ///
    /// `contactInGesture`: the contact the engine is tracking, so that a device vanishing mid-use
    /// ends that gesture (as a release: the value stays where the user left it) rather than
    /// cancelling it, which would undo the user's work.
    func forEachInput(forTouch batch: [TouchEvent], contactInGesture: Contact?, _ body: (SliderInput) -> Void) {
        for event in batch {
            switch event {
            case let .down(id, x, y, _): body(.press(.touch(id), SliderPoint(x: x, y: y)))
            case let .motion(id, x, y, _): body(.move(.touch(id), SliderPoint(x: x, y: y)))
            case let .up(id, _): body(.release(.touch(id)))
            case .cancel(.compositor): body(.cancel)
            case .cancel(.deviceRemoved):
                if case .touch(let id)? = contactInGesture { body(.release(.touch(id))) } else { body(.cancel) }
            }
        }
    }

    /// Hands `body` the slider inputs of one `wl_pointer.frame` batch, in order.
    mutating func forEachInput(forPointer batch: [PointerEvent], contactInGesture: Contact?, _ body: (SliderInput) -> Void) {
        for event in batch {
            switch event {
            case let .enter(x, y):
                pointerPosition = SliderPoint(x: x, y: y)
            case let .motion(x, y, _):
                pointerPosition = SliderPoint(x: x, y: y)
                body(.move(.pointer, SliderPoint(x: x, y: y)))
            case let .button(button, state, _) where button == PointerEvent.leftButton:
                if state == .pressed, let p = pointerPosition {
                    body(.press(.pointer, p))
                } else if state == .released {
                    body(.release(.pointer))
                }
            case .button:
                break
            case let .wheel(axis, value120, _, _):
                body(.wheel(value120: Int(value120), axis: axis == .vertical ? .vertical : .horizontal))
            case let .scroll(axis, pixels, _, _):
                body(.scroll(pixels: pixels, axis: axis == .vertical ? .vertical : .horizontal))
            case .scrollStop:
                break
            case .leave, .deviceRemoved:
                // The compositor keeps an implicit grab while the button is held, so this comes
                // only when it broke the grab or the mouse went away: end the drag where it is.
                pointerPosition = nil
                if contactInGesture == .pointer { body(.release(.pointer)) }
            }
        }
    }
}

extension TouchEvent {
    /// The compositor's timestamp of the event, if it has one.
    var time: UInt32? {
        switch self {
        case let .down(_, _, _, time), let .motion(_, _, _, time), let .up(_, time): time
        case .cancel: nil
        }
    }
}

extension PointerEvent {
    /// The compositor's timestamp of the event, if it has one.
    var time: UInt32? {
        switch self {
        case let .motion(_, _, time), let .button(_, _, time), let .wheel(_, _, _, time),
             let .scroll(_, _, _, time), let .scrollStop(_, time): time
        case .enter, .leave, .deviceRemoved: nil
        }
    }
}
