import SliderEngine
import SliderRender
import Testing
import WaylandClient
@testable import SliderApp

/// The pure decisions of the app: when to draw, what a reused buffer must repaint, and how
/// Wayland input becomes slider input.
@Suite("Frame pacing, damage history, input mapping")
struct PacingTests {
    @Test("input draws at once when no callback is pending, otherwise when it arrives; an animation draws on every callback")
    func pacer() {
        var pacer = FramePacer()
        let idle = pacer.markDirty()
        #expect(idle, "idle: draw now")
        pacer.drew(requestedCallback: true, animating: false)
        let whilePending = pacer.markDirty()
        #expect(!whilePending, "a callback is on its way: wait for it")
        let onCallback = pacer.frameDone()
        #expect(onCallback, "and draw when it comes")
        pacer.drew(requestedCallback: true, animating: true)
        let animating = pacer.frameDone()
        #expect(animating, "nothing new, but the animation's next frame is due")
        pacer.drew(requestedCallback: false, animating: false)
        let unchanged = pacer.frameDone()
        #expect(!unchanged, "nothing changed since, nothing moves")
        let again = pacer.markDirty()
        #expect(again)
    }

    @Test("a buffer of age N repaints the damage of the last N frames; age 0 or too old repaints all")
    func damageHistory() {
        var history = DamageHistory()
        let whole = PixelRect(x: 0, y: 0, width: 100, height: 10)
        let a = PixelRect(x: 0, y: 0, width: 1, height: 1), b = PixelRect(x: 5, y: 0, width: 1, height: 1)
        let c = PixelRect(x: 9, y: 2, width: 1, height: 1)
        do { let r = history.repaint(for: a, bufferAge: 0, whole: whole); #expect(r == whole) }
        do { let r = history.repaint(for: b, bufferAge: 1, whole: whole); #expect(r == b) }
        do { let r = history.repaint(for: c, bufferAge: 2, whole: whole); #expect(r == PixelRect(x: 5, y: 0, width: 5, height: 3), "this frame's ∪ the one before") }
        do { let r = history.repaint(for: a, bufferAge: 3, whole: whole); #expect(r == PixelRect(x: 0, y: 0, width: 10, height: 3)) }
        do { let r = history.repaint(for: a, bufferAge: DamageHistory.depth + 2, whole: whole); #expect(r == whole, "older than remembered") }
    }

    @Test("the history keeps the last frames' damage however many frames went by (a ring): the oldest remembered is still in")
    func damageHistoryWraps() {
        var history = DamageHistory()
        let whole = PixelRect(x: 0, y: 0, width: 100, height: 10)
        // Frame k damages column 10·k.
        func column(_ k: Int) -> PixelRect { PixelRect(x: 10 * k, y: 0, width: 1, height: 1) }
        for k in 0..<7 { _ = history.repaint(for: column(k), bufferAge: 0, whole: whole) }
        // Frame 7 into a buffer of age 5, last drawn at frame 2: frames 3–7 repaint (columns 30 to 70).
        let oldest = history.repaint(for: column(7), bufferAge: DamageHistory.depth + 1, whole: whole)
        #expect(oldest == PixelRect(x: 30, y: 0, width: 41, height: 1))
        // Frame 8 into a buffer drawn at frame 7: frame 8 alone; frame 9 into one drawn at frame 6:
        // frames 7 to 9.
        #expect(history.repaint(for: column(8), bufferAge: 1, whole: whole) == column(8))
        #expect(history.repaint(for: column(9), bufferAge: 3, whole: whole) == PixelRect(x: 70, y: 0, width: 21, height: 1))
    }

    /// The inputs `forEachInput` hands over, collected.
    private func touchInputs(_ mapping: InputMapping, _ batch: [TouchEvent], _ contact: Contact?) -> [SliderInput] {
        var inputs: [SliderInput] = []
        mapping.forEachInput(forTouch: batch, contactInGesture: contact) { inputs.append($0) }
        return inputs
    }

    private func pointerInputs(_ mapping: inout InputMapping, _ batch: [PointerEvent], _ contact: Contact?) -> [SliderInput] {
        var inputs: [SliderInput] = []
        mapping.forEachInput(forPointer: batch, contactInGesture: contact) { inputs.append($0) }
        return inputs
    }

    @Test("touch maps to press/move/release by id; a vanished touch device ends the gesture it drove")
    func touchMapping() {
        let mapping = InputMapping()
        let batch: [TouchEvent] = [.down(id: 3, x: 1.5, y: 2, time: 0), .motion(id: 3, x: 4, y: 2, time: 1), .up(id: 3, time: 2)]
        #expect(touchInputs(mapping, batch, nil) == [
            .press(.touch(3), SliderPoint(x: 1.5, y: 2)), .move(.touch(3), SliderPoint(x: 4, y: 2)), .release(.touch(3)),
        ])
        #expect(touchInputs(mapping, [.cancel(.compositor)], .touch(3)) == [.cancel])
        #expect(touchInputs(mapping, [.cancel(.deviceRemoved)], .touch(3)) == [.release(.touch(3))])
    }

    @Test("the left button presses where the pointer is; leaving mid-drag releases")
    func pointerMapping() {
        var mapping = InputMapping()
        let left = PointerEvent.leftButton
        let early = pointerInputs(&mapping, [.button(button: left, state: .pressed, time: 0)], nil)
        #expect(early == [], "no position known yet")
        let inputs = pointerInputs(&mapping, [.enter(x: 10, y: 20), .button(button: left, state: .pressed, time: 1),
                                              .button(button: 0x111, state: .pressed, time: 1)], nil)
        #expect(inputs == [.press(.pointer, SliderPoint(x: 10, y: 20))], "other buttons do nothing")
        let leaving = pointerInputs(&mapping, [.leave], .pointer)
        #expect(leaving == [.release(.pointer)])
        let wheel = pointerInputs(&mapping, [.wheel(axis: .vertical, value120: -60, source: .wheel, time: 2)], nil)
        #expect(wheel == [.wheel(value120: -60, axis: .vertical)])
    }

    @Test("keysyms: both arrow pairs and the keypad, Page Up/Down, Home/End; other keys nothing")
    func keys() {
        #expect(SliderKey(keysym: Keysym.right) == .increment)
        #expect(SliderKey(keysym: Keysym.up) == .increment)
        #expect(SliderKey(keysym: Keysym.keypadDown) == .decrement)
        #expect(SliderKey(keysym: Keysym.pageUp) == .pageUp)
        #expect(SliderKey(keysym: Keysym.keypadEnd) == .end)
        #expect(SliderKey(keysym: Keysym.q) == nil)
    }
}
