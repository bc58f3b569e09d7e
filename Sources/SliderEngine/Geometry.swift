/// A point in logical (surface-local) pixels, y pointing down as in Wayland.
public struct SliderPoint: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// True when both coordinates are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A size in logical pixels.
public struct SliderSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public var description: String { "\(width.formattedCompactly)x\(height.formattedCompactly)" }
}

/// An axis-aligned rectangle in logical pixels.
public struct SliderRect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    public func contains(_ p: SliderPoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// The smallest rectangle containing both (an empty rectangle contributes nothing).
    public func union(_ other: SliderRect) -> SliderRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return SliderRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The overlap of both, or an empty rectangle.
    public func intersection(_ other: SliderRect) -> SliderRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return SliderRect(x: x0, y: y0, width: 0, height: 0) }
        return SliderRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String {
        "\(x.formattedCompactly),\(y.formattedCompactly) \(width.formattedCompactly)x\(height.formattedCompactly)"
    }
}

extension Double {
    /// "48" for whole numbers, the usual description otherwise: for messages, not for output.
    var formattedCompactly: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return description
    }
}
