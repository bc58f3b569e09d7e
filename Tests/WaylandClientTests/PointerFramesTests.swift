import Testing
@testable import WaylandClient

@Suite struct PointerFramesTests {
    @Test func eventsAreGroupedByFrame() {
        var pointer = PointerFrameAssembler(usesFrames: true)
        #expect(pointer.add(.enter(x: 1.5, y: 2.5)) == nil)
        #expect(pointer.add(.motion(x: 3.25, y: 2.5, time: 10)) == nil)
        #expect(pointer.frame() == [.enter(x: 1.5, y: 2.5), .motion(x: 3.25, y: 2.5, time: 10)])
        #expect(pointer.frame() == nil)
    }

    @Test func olderSeatsDeliverEachEventAlone() {
        var pointer = PointerFrameAssembler(usesFrames: false)
        #expect(pointer.add(.button(button: 0x110, state: .pressed, time: 5)) == [.button(button: 0x110, state: .pressed, time: 5)])
        #expect(pointer.axis(.vertical, pixels: 10, time: 6) == [.scroll(axis: .vertical, pixels: 10, source: .unknown, time: 6)])
    }

    @Test func value120IsPreferredOverDiscreteAndContinuous() {
        var pointer = PointerFrameAssembler(usesFrames: true)
        pointer.axisSource(.wheel)
        pointer.axisValue120(.vertical, value: 60)
        _ = pointer.axis(.vertical, pixels: 7.5, time: 20)
        #expect(pointer.frame() == [.wheel(axis: .vertical, value120: 60, source: .wheel, time: 20)])
    }

    @Test func discreteStepsBecome120thsWhenNoValue120() {
        var pointer = PointerFrameAssembler(usesFrames: true)
        pointer.axisSource(.wheel)
        pointer.axisDiscrete(.horizontal, steps: -1)
        _ = pointer.axis(.horizontal, pixels: -15, time: 30)
        #expect(pointer.frame() == [.wheel(axis: .horizontal, value120: -120, source: .wheel, time: 30)])
    }

    @Test func continuousScrollKeepsSubPixelDistanceAndStop() {
        var pointer = PointerFrameAssembler(usesFrames: true)
        pointer.axisSource(.finger)
        _ = pointer.axis(.vertical, pixels: 2.75, time: 40)
        _ = pointer.axis(.vertical, pixels: 0.5, time: 41)
        #expect(pointer.frame() == [.scroll(axis: .vertical, pixels: 3.25, source: .finger, time: 41)])
        pointer.axisSource(.finger)
        pointer.axisStop(.vertical, time: 50)
        _ = pointer.axis(.vertical, pixels: 0, time: 50)
        #expect(pointer.frame() == [.scrollStop(axis: .vertical, time: 50)])
    }

    @Test func scrollComesAfterOtherEventsVerticalFirst() {
        var pointer = PointerFrameAssembler(usesFrames: true)
        _ = pointer.axis(.horizontal, pixels: 1, time: 1)
        _ = pointer.axis(.vertical, pixels: 2, time: 1)
        _ = pointer.add(.motion(x: 0, y: 0, time: 1))
        #expect(pointer.frame() == [
            .motion(x: 0, y: 0, time: 1),
            .scroll(axis: .vertical, pixels: 2, source: .unknown, time: 1),
            .scroll(axis: .horizontal, pixels: 1, source: .unknown, time: 1),
        ])
    }

    @Test func sourceDoesNotLeakIntoTheNextFrame() {
        var pointer = PointerFrameAssembler(usesFrames: true)
        pointer.axisSource(.finger)
        _ = pointer.axis(.vertical, pixels: 1, time: 1)
        _ = pointer.frame()
        _ = pointer.axis(.vertical, pixels: 1, time: 2)
        #expect(pointer.frame() == [.scroll(axis: .vertical, pixels: 1, source: .unknown, time: 2)])
    }
}
