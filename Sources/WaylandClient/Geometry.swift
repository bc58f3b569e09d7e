// Sizes and rectangles in the two coordinate spaces a Wayland client juggles: logical (surface-local,
// what the compositor configures and input uses) and buffer pixels (what we draw into). One generic
// type each, tagged with its space, so the compiler keeps the spaces apart without two copies.

/// Surface-local coordinates: what the compositor configures and input uses.
public enum LogicalSpace {}
/// Buffer pixels: what is drawn into (logical × scale).
public enum BufferSpace {}

/// A size in one coordinate space.
public struct Size2D<Space>: Hashable, Sendable, CustomStringConvertible {
    /// Width.
    public var width: Int32
    /// Height.
    public var height: Int32

    /// Creates a size.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    /// "320x48"
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in one coordinate space.
public struct Rect2D<Space>: Hashable, Sendable {
    /// Left edge.
    public var x: Int32
    /// Top edge.
    public var y: Int32
    /// Width (may be 0: an empty rectangle).
    public var width: Int32
    /// Height (may be 0: an empty rectangle).
    public var height: Int32

    /// Creates a rectangle.
    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A size in logical (surface-local) coordinates.
public typealias LogicalSize = Size2D<LogicalSpace>
/// A rectangle in logical coordinates, e.g. for the input region.
public typealias LogicalRect = Rect2D<LogicalSpace>
/// A size in buffer pixels.
public typealias PixelSize = Size2D<BufferSpace>
/// A rectangle in buffer pixels, e.g. a damaged area.
public typealias BufferRect = Rect2D<BufferSpace>

extension Rect2D where Space == BufferSpace {
    /// This rectangle cut to `0..<size`; nil if nothing of it lies inside.
    public func clamped(to size: PixelSize) -> BufferRect? {
        let left = max(x, 0), top = max(y, 0)
        let right = min(Int64(x) + Int64(width), Int64(size.width))
        let bottom = min(Int64(y) + Int64(height), Int64(size.height))
        guard right > Int64(left), bottom > Int64(top) else { return nil }
        return BufferRect(x: left, y: top, width: Int32(right - Int64(left)), height: Int32(bottom - Int64(top)))
    }
}
