// What can go wrong when a test drives the compositor. Every message names what failed and with
// which numbers, so a failing test explains itself.
import Glibc

/// An error from a ``TestCompositor`` call.
public struct TestCompositorError: Error, CustomStringConvertible, Sendable {
    /// The full explanation.
    public let description: String
    init(_ description: String) { self.description = description }

    static let stopped = TestCompositorError("test compositor: already stopped")
    static func unknownSurface(_ s: SurfaceID) -> Self { Self("test compositor: \(s) does not exist or was destroyed") }
    static func unknownClient(_ c: ClientID) -> Self { Self("test compositor: \(c) is not connected") }
    static func system(_ what: String, _ code: Int32 = errno) -> Self {
        Self("test compositor: \(what) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}
