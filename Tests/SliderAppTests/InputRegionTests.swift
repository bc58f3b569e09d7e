import SliderEngine
import Testing
import WaylandClient
@testable import SliderApp

/// The input region is the visible band in whole logical pixels, as 32-bit Wayland coordinates:
/// whatever the band's numbers, the conversion must not trap.
@Suite struct InputRegionTests {
    @Test(arguments: [
        SliderRect(x: .nan, y: 0, width: 10, height: 10), SliderRect(x: 0, y: 0, width: .nan, height: 10),
        SliderRect(x: -.infinity, y: 0, width: .infinity, height: 1), SliderRect(x: 1e300, y: -1e300, width: 1e300, height: 1e300),
        SliderRect(x: -3e9, y: 2.2e9, width: 6e9, height: 1), SliderRect(x: 0, y: 0, width: .greatestFiniteMagnitude, height: 48),
    ])
    func extremeBandsAreClampedToInt32(rect: SliderRect) {
        let region = SliderController.logicalRect(enclosing: rect)
        #expect(region.width >= 0 && region.height >= 0)
        #expect(Int64(region.x) + Int64(region.width) <= Int64(Int32.max), "\(region)")
        if rect.minX.isNaN || rect.maxX.isNaN { #expect(region == LogicalRect(x: 0, y: 0, width: 0, height: 0)) }
    }
}
