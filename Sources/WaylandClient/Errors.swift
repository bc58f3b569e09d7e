// Errors of the Wayland layer: each one a single line that says what failed, with the numbers.
import Posix

/// A failure of the Wayland layer: connecting, a missing or too old global, a lost connection, a
/// protocol error or a failed system call. `description` is one line meant for stderr, e.g.
/// "wl_compositor: need version 4, compositor offers 3".
public struct WaylandError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure this is, for code that wants to react differently to each.
    public enum Kind: Equatable, Sendable {
        /// `wl_display_connect` failed (no compositor, bad `WAYLAND_DISPLAY`, no `XDG_RUNTIME_DIR`).
        case connectionFailed
        /// A required global is not advertised at all.
        case missingGlobal
        /// A required global is advertised with a version below what wlslider needs.
        case versionTooOld
        /// The compositor sent `wl_display.error` (we broke the protocol).
        case protocolError
        /// The connection broke: the compositor went away or a socket call failed.
        case connectionLost
        /// A system call (memfd, mmap, poll, ...) failed.
        case systemCall
        /// A request that cannot be honoured (e.g. a buffer too large for wl_shm).
        case unsupported
        /// The compositor did not answer in time (while connecting).
        case timedOut
        /// A signal arrived while connecting: not a failure, the user asked to stop.
        case interrupted
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// One line, without a trailing newline.
    public let description: String

    /// Creates an error of `kind` with a one-line `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

extension WaylandError {
    /// "xdg_wm_base: need version 1, compositor offers none"
    static func missingGlobal(_ interface: String, needed: UInt32) -> WaylandError {
        WaylandError(.missingGlobal, "\(interface): need version \(needed), compositor offers none")
    }

    /// "wl_compositor: need version 4, compositor offers 3"
    static func versionTooOld(_ interface: String, needed: UInt32, offered: UInt32) -> WaylandError {
        WaylandError(.versionTooOld, "\(interface): need version \(needed), compositor offers \(offered)")
    }

    /// "memfd_create failed: Too many open files (errno 24)", optionally with what was being done.
    static func systemCall(_ call: String, errno code: Errno, while doing: String? = nil) -> WaylandError {
        let context = doing.map { " while \($0)" } ?? ""
        return WaylandError(.systemCall, "\(call) failed\(context): \(code)")
    }
}
