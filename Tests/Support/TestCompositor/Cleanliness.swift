// The check after every test, as qtwayland's mock compositor does it: no protocol error, no write
// into a buffer the compositor held, and a shutdown that leaves no thread, descriptor, child
// process or runtime directory behind.

extension TestCompositor {
    /// Stops the compositor and returns everything it was left with that a test should fail on:
    /// protocol errors (unless `allowProtocolErrors`), writes into held buffers (unless
    /// `allowHeldBufferWrites`), unreaped children, and whatever the shutdown found still open.
    /// Empty when the compositor was left clean.
    public func stopAndCheck(allowProtocolErrors: Bool = false, allowHeldBufferWrites: Bool = false) -> [String] {
        let leftovers = stop()
        let final = state
        var problems: [String] = []
        if !allowHeldBufferWrites { problems += final.heldBufferWrites.map { "client wrote into a held buffer: \($0)" } }
        if !allowProtocolErrors { problems += final.protocolErrors.map { "protocol error: \($0)" } }
        problems += final.processes.values.filter { $0.exitStatus == nil }.map { "\($0.id) (pid \($0.pid)) was not reaped" }
        return problems + leftovers.map { "shutdown: \($0)" }
    }
}

#if canImport(Testing)
// Only where Swift Testing is available (test builds): the benchmarks link this module into a
// release executable, where it is not.
import Testing

/// Runs `body` with a fresh compositor, then stops it and records an issue for each problem it
/// was left with (see ``TestCompositor/stopAndCheck(allowProtocolErrors:allowHeldBufferWrites:)``).
///
/// Tests that provoke protocol errors or held-buffer writes on purpose allow them here and check
/// ``CompositorState/protocolErrors`` or ``CompositorState/heldBufferWrites`` themselves.
public func withTestCompositor<T>(
    _ configuration: Configuration = Configuration(),
    allowProtocolErrors: Bool = false,
    allowHeldBufferWrites: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (TestCompositor) async throws -> T
) async throws -> T {
    let compositor = try TestCompositor(configuration)
    let result: T
    do {
        result = try await body(compositor)
    } catch {
        // The body's error is the one to report; the state summary helps explain it.
        _ = compositor.stop()
        throw error
    }
    for problem in compositor.stopAndCheck(allowProtocolErrors: allowProtocolErrors, allowHeldBufferWrites: allowHeldBufferWrites) {
        Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
    return result
}
#endif
