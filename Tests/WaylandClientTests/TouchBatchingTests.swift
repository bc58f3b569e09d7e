import Testing
@testable import WaylandClient

@Suite struct TouchBatchingTests {
    @Test func eventsWaitForTheFrame() {
        var touch = TouchBatcher()
        touch.down(id: 0, x: 10.5, y: 20.25, time: 100)
        touch.motion(id: 0, x: 11.00390625, y: 20.25, time: 108)
        #expect(touch.pending.count == 2)
        #expect(touch.frame() == [
            .down(id: 0, x: 10.5, y: 20.25, time: 100),
            .motion(id: 0, x: 11.00390625, y: 20.25, time: 108),
        ])
        #expect(touch.frame() == nil)
    }

    @Test func lastUpDeliversWithoutAFrameAndAFrameAfterItDeliversNothing() {
        // weston issue 44: no wl_touch.frame after the final up.
        var touch = TouchBatcher()
        touch.down(id: 3, x: 1, y: 2, time: 1)
        _ = touch.frame()
        touch.motion(id: 3, x: 5, y: 2, time: 2)
        #expect(touch.up(id: 3, time: 3) == [.motion(id: 3, x: 5, y: 2, time: 2), .up(id: 3, time: 3)])
        #expect(touch.activeIDs.isEmpty)
        #expect(touch.frame() == nil)
    }

    @Test func upOfOneOfTwoFingersWaitsForTheFrame() {
        var touch = TouchBatcher()
        touch.down(id: 0, x: 1, y: 1, time: 1)
        touch.down(id: 1, x: 9, y: 9, time: 1)
        _ = touch.frame()
        #expect(touch.up(id: 1, time: 2) == nil)
        #expect(touch.frame() == [.up(id: 1, time: 2)])
        #expect(touch.activeIDs == [0])
    }

    @Test func cancelDropsThePendingBatch() {
        var touch = TouchBatcher()
        touch.down(id: 0, x: 1, y: 1, time: 1)
        _ = touch.frame()
        touch.motion(id: 0, x: 2, y: 1, time: 2)
        #expect(touch.cancel() == [.cancel(.compositor)])
        #expect(touch.pending.isEmpty)
        #expect(touch.activeIDs.isEmpty)
        #expect(touch.frame() == nil)
        // A later up of the cancelled point is not reported.
        #expect(touch.up(id: 0, time: 3) == nil)
    }

    @Test func unknownPointsAreDropped() {
        var touch = TouchBatcher()
        touch.motion(id: 7, x: 1, y: 1, time: 1)
        #expect(touch.up(id: 7, time: 2) == nil)
        #expect(touch.frame() == nil)
    }

    @Test func idsAreReusedAfterUp() {
        var touch = TouchBatcher()
        touch.down(id: 0, x: 1, y: 1, time: 1)
        _ = touch.up(id: 0, time: 2)
        touch.down(id: 0, x: 50, y: 1, time: 3)
        #expect(touch.frame() == [.down(id: 0, x: 50, y: 1, time: 3)])
    }

    @Test func deviceRemovalCancelsOnlyAGestureInProgress() {
        var idle = TouchBatcher()
        #expect(idle.deviceRemoved() == nil)
        var busy = TouchBatcher()
        busy.down(id: 0, x: 1, y: 1, time: 1)
        _ = busy.frame()
        #expect(busy.deviceRemoved() == [.cancel(.deviceRemoved)])
        #expect(busy.activeIDs.isEmpty)
    }
}
