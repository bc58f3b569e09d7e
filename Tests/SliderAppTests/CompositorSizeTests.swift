// A compositor decides the window's size and scale, and may choose any: one pixel, a window
// narrower than the grown thumb, a horizontal slider in a tall window. wlslider must draw each,
// take touches on it, and keep its value stream finite.
import Glibc
import TestCompositor
import Testing

@Suite struct CompositorSizeTests {
    static let sizes: [(Int32, Int32)] = [
        (1, 1), (30, 48), (37, 48), (20, 10), (48, 320), (100, 200), (3, 500), (5000, 2), (1, 48), (320, 1), (2, 2), (320, 48),
    ]

    @Test func anyConfiguredSizeAndScaleIsDrawnAndTouchable() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let (run, surface) = try await compositor.startWlslider(["--value", "30", "--jump-duration", "0.05"])
            let client = try await compositor.waitForClient(pid: run.pid, timeout: patience)
            try await compositor.waitUntil("wlslider to take the touch device", timeout: patience) {
                $0.clients[client]?.requests("wl_seat.get_touch") ?? 0 > 0
            }
            for scale120 in [UInt32(120), 150, 210, 1200] {
                try compositor.sendPreferredScale(surface, scale120: scale120)
                for (width, height) in Self.sizes {
                    // Counted before the configure: wlslider may answer it before the wait begins.
                    let before = try compositor.surface(surface).commitCount
                    let size = Size(width: width, height: height)
                    _ = try compositor.configure(surface, size: size)
                    // Fractional scaling: the buffer goes through a viewport onto the configured size,
                    // unless that is too large to draw (over 16384 buffer pixels a side): then a
                    // smaller surface is drawn, with one warning.
                    let tooLarge = Double(max(width, height)) * Double(scale120) / 120 > 16384
                    _ = try await compositor.waitForCommit(on: surface, after: before, timeout: patience) {
                        $0.buffer != nil && ($0.viewportDestination == size || tooLarge)
                    }
                    // A touch anywhere on it, a drag off it, a lift.
                    _ = try compositor.touch.down(on: surface, x: Double(width) * 0.7, y: Double(height) / 2)
                    try compositor.touch.frame()
                    try compositor.touch.motion(x: -1000, y: 1e6)
                    try compositor.touch.frame()
                    _ = try compositor.touch.up()
                    try compositor.touch.frame()
                    #expect(run.exitCode == nil, "wlslider died at \(width)x\(height), scale \(scale120)/120\n\(run.summary)")
                    guard run.exitCode == nil else { return }
                }
            }
            run.send("70\n")
            try await run.waitForLastLine("70.00")
            run.send("quit\n")
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdoutLines.allSatisfy { Double($0)?.isFinite == true }, "\(run.stdoutLines)")
            #expect(run.stderrLines.allSatisfy { $0.contains("too large to draw") }, "\(run.stderrText)")
        }
    }
}
