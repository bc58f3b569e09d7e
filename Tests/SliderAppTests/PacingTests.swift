import SliderEngine
import SliderRender
import Testing
import WaylandClient
@testable import SliderApp

/// The pure decisions of the app: when to draw, what a reused buffer must repaint, and how
/// Wayland input becomes slider input.
@Suite("Frame pacing, damage history, input mapping")
struct PacingTests {
    @Test("input draws at once when no callback is pending, otherwise when it arrives")
    func pacer() {
        var pacer = FramePacer()
        let idle = pacer.markDirty()
        #expect(idle, "idle: draw now")
        pacer.drew(requestedCallback: true)
        let whilePending = pacer.markDirty()
        #expect(!whilePending, "a callback is on its way: wait for it")
        let onCallback = pacer.frameDone()
        #expect(onCallback, "and draw when it comes")
        pacer.drew(requestedCallback: false)
        let unchanged = pacer.frameDone()
        #expect(!unchanged, "nothing changed since")
        let again = pacer.markDirty()
        #expect(again)
    }

    @Test("a buffer of age N repaints the damage of the last N frames; age 0 or too old repaints all")
    func damageHistory() {
        var history = DamageHistory()
        let a = PixelRect(x: 0, y: 0, width: 1, height: 1), b = PixelRect(x: 5, y: 0, width: 1, height: 1)
        let c = PixelRect(x: 9, y: 0, width: 1, height: 1)
        do { let r = history.repaint(for: [a], bufferAge: 0); #expect(r == nil) }
        do { let r = history.repaint(for: [b], bufferAge: 1); #expect(r == [b]) }
        do { let r = history.repaint(for: [c], bufferAge: 2); #expect(r == [c, b], "this frame's and the one before") }
        do { let r = history.repaint(for: [a], bufferAge: 3); #expect(r == [a, c, b]) }
        do { let r = history.repaint(for: [a], bufferAge: DamageHistory.depth + 2); #expect(r == nil, "older than remembered") }
    }

    @Test("touch maps to press/move/release by id; a vanished touch device ends the gesture it drove")
    func touchMapping() {
        let mapping = InputMapping()
        let batch: [TouchEvent] = [.down(id: 3, x: 1.5, y: 2, time: 0), .motion(id: 3, x: 4, y: 2, time: 1), .up(id: 3, time: 2)]
        #expect(mapping.inputs(forTouch: batch, contactInGesture: nil) == [
            .press(.touch(3), SliderPoint(x: 1.5, y: 2)), .move(.touch(3), SliderPoint(x: 4, y: 2)), .release(.touch(3)),
        ])
        #expect(mapping.inputs(forTouch: [.cancel(.compositor)], contactInGesture: .touch(3)) == [.cancel])
        #expect(mapping.inputs(forTouch: [.cancel(.deviceRemoved)], contactInGesture: .touch(3)) == [.release(.touch(3))])
    }

    @Test("the left button presses where the pointer is; leaving mid-drag releases")
    func pointerMapping() {
        var mapping = InputMapping()
        let left = PointerEvent.leftButton
        let early = mapping.inputs(forPointer: [.button(button: left, state: .pressed, time: 0)], contactInGesture: nil)
        #expect(early == [], "no position known yet")
        let inputs = mapping.inputs(forPointer: [.enter(x: 10, y: 20), .button(button: left, state: .pressed, time: 1),
                                                 .button(button: 0x111, state: .pressed, time: 1)], contactInGesture: nil)
        #expect(inputs == [.press(.pointer, SliderPoint(x: 10, y: 20))], "other buttons do nothing")
        let leaving = mapping.inputs(forPointer: [.leave], contactInGesture: .pointer)
        #expect(leaving == [.release(.pointer)])
        let wheel = mapping.inputs(forPointer: [.wheel(axis: .vertical, value120: -60, source: .wheel, time: 2)],
                                   contactInGesture: nil)
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
