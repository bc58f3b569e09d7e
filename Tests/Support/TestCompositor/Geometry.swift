// Rectangles, sizes and regions as clients send them (integers in surface or buffer coordinates).

/// A size in surface-local or buffer coordinates.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Width and height; either may be 0 (e.g. in a configure).
    public var width: Int32
    public var height: Int32
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}

/// An integer rectangle, as in `wl_surface.damage` or `wl_region.add`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Origin and extent.
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32
    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// Whether the point lies inside (left/top edges inclusive, right/bottom exclusive).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && py >= Double(y) && px < Double(x) + Double(width) && py < Double(y) + Double(height)
    }
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// A `wl_region` as the client built it: a sequence of `add` and `subtract` rectangles.
///
/// Kept as the client's operations rather than flattened, so a test can check both what the
/// client sent and which points the region covers.
public struct Region: Hashable, Sendable, CustomStringConvertible {
    /// One `wl_region.add` or `wl_region.subtract` request.
    public enum Operation: Hashable, Sendable {
        case add(Rect)
        case subtract(Rect)
    }
    /// The requests in the order the client sent them.
    public internal(set) var operations: [Operation] = []

    /// The rectangles added, ignoring subtractions (exact when ``hasSubtractions`` is false).
    public var addedRects: [Rect] {
        operations.compactMap { if case .add(let r) = $0 { r } else { nil } }
    }
    /// Whether the client subtracted anything.
    public var hasSubtractions: Bool {
        operations.contains { if case .subtract = $0 { true } else { false } }
    }
    /// Whether the region covers the point: the last operation whose rectangle holds it decides.
    public func contains(x: Double, y: Double) -> Bool {
        for op in operations.reversed() {
            switch op {
            case .add(let r) where r.contains(x: x, y: y): return true
            case .subtract(let r) where r.contains(x: x, y: y): return false
            default: continue
            }
        }
        return false
    }
    /// The smallest rectangle around every added rectangle, or nil when nothing was added.
    public var boundingBox: Rect? {
        let rects = addedRects.filter { $0.width > 0 && $0.height > 0 }
        guard let first = rects.first else { return nil }
        var x0 = first.x, y0 = first.y, x1 = first.x + first.width, y1 = first.y + first.height
        for r in rects.dropFirst() {
            x0 = min(x0, r.x); y0 = min(y0, r.y)
            x1 = max(x1, r.x + r.width); y1 = max(y1, r.y + r.height)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    public var description: String {
        operations.map { op in
            switch op {
            case .add(let r): "+\(r)"
            case .subtract(let r): "-\(r)"
            }
        }.joined(separator: " ")
    }
}
