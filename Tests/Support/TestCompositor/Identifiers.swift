// Names the test compositor gives to what it sees. Wayland object ids are reused by clients once an
// object is destroyed, so the compositor numbers clients, surfaces, buffers and processes itself,
// in order of appearance, starting at 1; a number is never reused within one compositor.

/// A client connection, numbered in order of connection.
public struct ClientID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, starting at 1.
    public let rawValue: Int
    init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "client \(rawValue)" }
}

/// A `wl_surface`, numbered in order of creation across all clients.
public struct SurfaceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, starting at 1.
    public let rawValue: Int
    init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "surface \(rawValue)" }
}

/// A `wl_buffer`, numbered the first time a client attaches it to a surface.
public struct BufferID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, starting at 1.
    public let rawValue: Int
    init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "buffer \(rawValue)" }
}

/// A child process started with ``TestCompositor/launch(_:arguments:environment:)``.
public struct ProcessID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, starting at 1 (not the operating system's pid: see ``ProcessState/pid``).
    public let rawValue: Int
    init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "process \(rawValue)" }
}

/// Hands out the numbers above, one sequence per kind.
struct Counter {
    private var last = 0
    mutating func next() -> Int {
        last += 1
        return last
    }
}
