// Starting wlslider under the test compositor and reading its value stream.
import Glibc
import TestCompositor
import Testing

enum StreamFixture {
    /// A compositor that answers frame callbacks every 16 ms of real time, like a 60 Hz output;
    /// each tick also advances its clock by 16 ms, so a glide takes the same number of frames
    /// however loaded the machine is.
    static func configuration(frames: FrameCallbackMode = .realTime(intervalMilliseconds: 16)) -> Configuration {
        var configuration = Configuration()
        configuration.frameCallbacks = frames
        return configuration
    }
}

extension TestCompositor {
    /// Starts wlslider as a client of this compositor and waits until its window shows a buffer.
    func startWlslider(_ arguments: [String]) async throws -> (WlsliderProcess, SurfaceID) {
        let run = try WlsliderProcess(arguments, environment: environment)
        do {
            let surface = try await waitForSurface(role: .toplevel, timeout: patience)
            _ = try await waitForCommit(on: surface, after: 0, timeout: patience) { $0.buffer != nil }
            return (run, surface)
        } catch {
            throw WaitTimeout(description: "\(error)\n\(run.summary)")
        }
    }
}

/// Lines as numbers; records an issue for a line that is not one.
func numbers(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [Double] {
    lines.compactMap { line in
        guard let value = Double(line) else {
            Issue.record("not a number: \"\(line)\"", sourceLocation: sourceLocation)
            return nil
        }
        return value
    }
}

/// True when each element is ≥ (or, with `strictly`, >) the one before.
func isAscending(_ values: [Double], strictly: Bool = false) -> Bool {
    zip(values, values.dropFirst()).allSatisfy { strictly ? $1 > $0 : $1 >= $0 }
}

/// True when `line` is digits (with an optional leading minus) and exactly `decimals` after a point.
func hasDecimals(_ line: String, _ decimals: Int) -> Bool {
    let unsigned = line.hasPrefix("-") ? line.dropFirst() : Substring(line)
    let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isNumber) else { return false }
    if decimals == 0 { return parts.count == 1 }
    return parts.count == 2 && parts[1].count == decimals && parts[1].allSatisfy(\.isNumber)
}
