import Testing
@testable import WaylandClient

@Suite struct ScaleTests {
    private let slider = LogicalSize(width: 320, height: 48)

    @Test(arguments: [
        (UInt32(120), Int32(320), Int32(48)),
        (150, 400, 60),
        (180, 480, 72),
        (240, 640, 96),
        (360, 960, 144),
    ])
    func bufferSizeAtCommonScales(value120: UInt32, width: Int32, height: Int32) {
        #expect(SurfaceScale(fractional: value120).bufferSize(for: slider) == PixelSize(width: width, height: height))
    }

    @Test func integerScalesAreExact() {
        #expect(SurfaceScale(integer: 2).bufferSize(for: LogicalSize(width: 321, height: 47)) == PixelSize(width: 642, height: 94))
        #expect(SurfaceScale(integer: 3).bufferSize(for: LogicalSize(width: 1, height: 1)) == PixelSize(width: 3, height: 3))
        #expect(SurfaceScale(integer: 0) == SurfaceScale(integer: 1))
    }

    @Test func fractionalSizesRoundHalfAwayFromZero() {
        // 101 × 1.25 = 126.25 → 126; 3 × 1.5 = 4.5 → 5; 7 × 1.25 = 8.75 → 9; 1 × 1.5 = 1.5 → 2.
        let s125 = SurfaceScale(fractional: 150), s15 = SurfaceScale(fractional: 180)
        #expect(s125.bufferSize(for: LogicalSize(width: 101, height: 7)) == PixelSize(width: 126, height: 9))
        #expect(s15.bufferSize(for: LogicalSize(width: 3, height: 1)) == PixelSize(width: 5, height: 2))
        // 1.75 (210/120): 33 × 1.75 = 57.75 → 58; odd 120ths: 10 × 121/120 = 10.083 → 10.
        #expect(SurfaceScale(fractional: 210).bufferSize(for: LogicalSize(width: 33, height: 2)) == PixelSize(width: 58, height: 4))
        #expect(SurfaceScale(fractional: 121).bufferSize(for: LogicalSize(width: 10, height: 60)) == PixelSize(width: 10, height: 61))
    }

    @Test func factorDescriptionAndIntegerCeiling() {
        #expect(SurfaceScale(fractional: 150).factor == 1.25)
        #expect(SurfaceScale(fractional: 150).description == "1.25")
        #expect(SurfaceScale(fractional: 180).description == "1.5")
        #expect(SurfaceScale(integer: 2).description == "2")
        #expect(SurfaceScale(fractional: 140).description == "1.17")
        #expect(SurfaceScale(fractional: 126).description == "1.05")
        #expect(SurfaceScale(fractional: 150).integerCeiling == 2)
        #expect(SurfaceScale(fractional: 240).integerCeiling == 2)
        #expect(SurfaceScale(fractional: 0) == SurfaceScale(fractional: 120))
    }

    @Test func logicalDamageCoversEveryTouchedBufferPixel() {
        let scale = SurfaceScale(fractional: 150)
        // x 10..<21 → 12.5..<26.25 → pixels 12..<27
        let rect = scale.bufferRect(for: LogicalRect(x: 10, y: 0, width: 11, height: 48), in: slider)
        #expect(rect == BufferRect(x: 12, y: 0, width: 15, height: 60))
        // Clipped to the buffer.
        let outside = scale.bufferRect(for: LogicalRect(x: 300, y: -5, width: 100, height: 10), in: slider)
        #expect(outside == BufferRect(x: 375, y: 0, width: 25, height: 7))
        #expect(scale.bufferRect(for: LogicalRect(x: 400, y: 0, width: 5, height: 5), in: slider) == nil)
        #expect(floorDivide(-750, 120) == -7)
        #expect(floorDivide(750, 120) == 6)
        #expect(floorDivide(-720, 120) == -6)
    }

    @Test func damageRectsAreClampedToTheBuffer() {
        let size = PixelSize(width: 100, height: 50)
        #expect(BufferRect(x: -10, y: 40, width: 30, height: 30).clamped(to: size) == BufferRect(x: 0, y: 40, width: 20, height: 10))
        #expect(BufferRect(x: 100, y: 0, width: 5, height: 5).clamped(to: size) == nil)
        #expect(BufferRect(x: 0, y: 0, width: 0, height: 5).clamped(to: size) == nil)
    }

    @Test func integerScaleIsTheLargestEnteredOutput() {
        #expect(integerScale(entered: [1, 2], allOutputs: [1, 2, 3]) == 2)
        #expect(integerScale(entered: [], allOutputs: [1, 3]) == 3)
        #expect(integerScale(entered: [], allOutputs: []) == 1)
        #expect(integerScale(entered: [0], allOutputs: [2]) == 1)
    }
}
