// Comparing rendered buffers with reference PNGs in Golden/.
//
// References are never re-recorded silently: only WLSLIDER_RECORD_GOLDEN=1 writes them, and
// such a run still fails so a recording cannot pass CI by accident.
import Glibc
import PNGImage
import Testing

enum Golden {
    /// Per-channel difference (0...255, premultiplied) tolerated: pixman's SIMD and generic
    /// paths may round differently by one step.
    static let tolerance = 2

    /// The Golden folder next to this source file.
    static let directory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!]) + "/Golden"
    }()

    static var recording: Bool { getenv("WLSLIDER_RECORD_GOLDEN").map { String(cString: $0) } == "1" }

    /// Checks premultiplied `pixels` against `Golden/<name>.png`; on mismatch writes
    /// `<name>.actual.png` and `<name>.diff.png` beside it.
    static func check(_ pixels: [UInt32], width: Int, height: Int, name: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = PNGImage(width: width, height: height, premultiplied: pixels)
        let path = "\(directory)/\(name).png"
        let actualPath = "\(directory)/\(name).actual.png", diffPath = "\(directory)/\(name).diff.png"
        if recording {
            do {
                try actual.write(to: path)
                Issue.record("recorded \(path); unset WLSLIDER_RECORD_GOLDEN, look at the image and rerun", sourceLocation: sourceLocation)
            } catch {
                Issue.record("recording failed: \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard access(path, F_OK) == 0 else {
            Issue.record("missing golden reference \(path): record it with `WLSLIDER_RECORD_GOLDEN=1 swift test --filter GoldenTests`, check the image, then commit it", sourceLocation: sourceLocation)
            return
        }
        let reference: PNGImage
        do { reference = try PNGImage(contentsOf: path) } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return
        }
        if let problem = compare(actual: pixels, width: width, height: height, reference: reference) {
            let written = writeArtifacts(actual: actual, reference: reference, actualPath: actualPath, diffPath: diffPath)
            Issue.record("\(name): \(problem); \(written)", sourceLocation: sourceLocation)
        } else {
            unlink(actualPath)
            unlink(diffPath)
        }
    }

    /// nil when within tolerance, else a one-line description of the worst difference.
    static func compare(actual: [UInt32], width: Int, height: Int, reference: PNGImage) -> String? {
        guard reference.width == width, reference.height == height else {
            return "size \(width)x\(height) but the reference is \(reference.width)x\(reference.height)"
        }
        let expected = reference.premultipliedPixels
        var bad = 0, worst = 0, worstIndex = 0
        for i in actual.indices {
            let distance = channelDistance(actual[i], expected[i])
            if distance > tolerance { bad += 1 }
            if distance > worst { (worst, worstIndex) = (distance, i) }
        }
        guard bad > 0 else { return nil }
        let hex = { (v: UInt32) in "0x" + String(v, radix: 16) }
        return "\(bad) of \(actual.count) pixels differ by more than \(tolerance); worst \(worst) at (\(worstIndex % width), \(worstIndex / width)): expected \(hex(expected[worstIndex])) got \(hex(actual[worstIndex])) (premultiplied ARGB)"
    }

    /// The diff image: the reference dimmed to grey, with differing pixels in red (brighter =
    /// larger difference) so the eye finds them at once.
    static func writeArtifacts(actual: PNGImage, reference: PNGImage, actualPath: String, diffPath: String) -> String {
        var notes: [String] = []
        do { try actual.write(to: actualPath); notes.append("wrote \(actualPath)") } catch { notes.append("\(error)") }
        guard reference.width == actual.width, reference.height == actual.height else { return notes.joined(separator: ", ") }
        let expected = reference.premultipliedPixels, got = actual.premultipliedPixels
        let diff = zip(expected, got).map { e, g -> UInt32 in
            let distance = channelDistance(e, g)
            if distance > tolerance { return 0xFF00_0000 | UInt32(128 + min(distance, 127)) << 16 }
            let grey = UInt32((channel(e, 16) + channel(e, 8) + channel(e, 0)) / 3 / 3)
            return 0xFF00_0000 | grey << 16 | grey << 8 | grey
        }
        do {
            try PNGImage(width: actual.width, height: actual.height, pixels: diff).write(to: diffPath)
            notes.append("wrote \(diffPath)")
        } catch { notes.append("\(error)") }
        return notes.joined(separator: ", ")
    }
}
