// What the frame path asks of the kernel besides the protocol: the watch for a late frame
// callback moves with every frame, and must not cost a system call at every frame.
import Foundation
import Glibc
import TestCompositor
import Testing

@Suite struct WakeupTimerTests {
    /// While a glide animates, each frame moves the watch for a late callback a frame later.
    /// The loop's wake-up timer is set again only when the watch leaves the leeway it was set
    /// with: about every other frame, counted by strace as wlslider's timerfd_settime calls
    /// against the frames the compositor saw committed. The compositor answers every 20 ms
    /// while wlslider takes a frame to be 16.7 ms (60 Hz, no output mode known), as a busy
    /// compositor does: with a frame of leeway, the timer was then set at every frame.
    @Test("a glide sets the loop's wake-up timer about every other frame, not at every frame, with callbacks slower than the refresh rate")
    func lateCallbackWatchSetsTheTimerEveryOtherFrame() async throws {
        try await withTestCompositor(StreamFixture.configuration(frames: .realTime(intervalMilliseconds: 20))) { compositor in
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("wlslider-timerfd-\(getpid()).log").path
            defer { unlink(log) }
            let run = try WlsliderProcess(
                ["-qq", "-e", "trace=timerfd_settime", "-o", log, wlsliderPath, "--value", "0", "--jump-duration", "1.5", "--curve", "linear"],
                environment: compositor.environment, executable: "/usr/bin/strace")
            let surface = try await compositor.waitForSurface(role: .toplevel, timeout: patience)
            _ = try await compositor.waitForCommit(on: surface, after: 0, timeout: patience) { $0.buffer != nil }
            try await run.waitForLines("the initial value") { $0 == ["0.00"] }
            let before = try compositor.surface(surface).commitCount
            run.send("100\n")
            _ = try await run.waitForLastLine("100.00")
            let frames = try compositor.surface(surface).commitCount - before
            run.send("quit\n")
            #expect(try await run.waitForExit() == 0, "\(run.stderrText)")

            let sets = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("timerfd_settime(") }.count
            // 1.5 s at 50 Hz: about 75 frames, and about half as many settings (the first watch
            // and the disarming at the glide's end besides). With a frame of leeway it was one a
            // frame (76 in 77); a loaded machine, whose frames come late, falls in between.
            #expect(frames >= 50, "a 1.5 s glide committed only \(frames) frames")
            #expect(Double(sets) <= Double(frames) * 0.75 + 3, "\(sets) timer settings in \(frames) frames")
        }
    }
}
