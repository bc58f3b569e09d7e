// Sizes and rectangles in the two coordinate spaces a Wayland client juggles: logical (surface-local,
// what the compositor configures and input uses) and buffer pixels (what we draw into).

/// A size in logical (surface-local) coordinates.
public struct LogicalSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in logical pixels.
    public var width: Int32
    /// Height in logical pixels.
    public var height: Int32

    /// Creates a logical size.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    /// "320x48"
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in logical (surface-local) coordinates, e.g. for the input region.
public struct LogicalRect: Hashable, Sendable {
    /// Left edge.
    public var x: Int32
    /// Top edge.
    public var y: Int32
    /// Width (may be 0: an empty rectangle).
    public var width: Int32
    /// Height (may be 0: an empty rectangle).
    public var height: Int32

    /// Creates a logical rectangle.
    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A size in buffer pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in buffer pixels.
    public var width: Int32
    /// Height in buffer pixels.
    public var height: Int32

    /// Creates a buffer-pixel size.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    /// "640x96"
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in buffer pixels, e.g. a damaged area.
public struct BufferRect: Hashable, Sendable {
    /// Left edge.
    public var x: Int32
    /// Top edge.
    public var y: Int32
    /// Width.
    public var width: Int32
    /// Height.
    public var height: Int32

    /// Creates a buffer-pixel rectangle.
    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// This rectangle cut to `0..<size`; nil if nothing of it lies inside.
    public func clamped(to size: PixelSize) -> BufferRect? {
        let left = max(x, 0), top = max(y, 0)
        let right = min(Int64(x) + Int64(width), Int64(size.width))
        let bottom = min(Int64(y) + Int64(height), Int64(size.height))
        guard right > Int64(left), bottom > Int64(top) else { return nil }
        return BufferRect(x: left, y: top, width: Int32(right - Int64(left)), height: Int32(bottom - Int64(top)))
    }
}
