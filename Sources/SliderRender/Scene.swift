// What to draw, and where to draw it.
import SliderEngine

/// One frame of the slider, in logical pixels (surface-local, y down).
///
/// The renderer knows nothing about values or animation: whoever owns the slider's state
/// (the engine) turns it into this geometry.
public struct SliderScene: Sendable, Equatable {
    /// The main axis; on `.vertical` the minimum is at the bottom.
    public var axis: Orientation
    /// The bounding box of the track's outline (for a wedge: of its thick end's thickness).
    public var track: SliderRect
    /// The main-axis coordinate (x for horizontal, y for vertical) where the value fill stops,
    /// normally the thumb's centre. The fill runs from the track's minimum end to here.
    public var fillEnd: Double
    /// The centre of the thumb.
    public var thumbCenter: SliderPoint
    /// The thumb's current radius, already including any grow animation.
    public var thumbRadius: Double

    /// Creates a scene.
    public init(axis: Orientation, track: SliderRect, fillEnd: Double, thumbCenter: SliderPoint, thumbRadius: Double) {
        self.axis = axis
        self.track = track
        self.fillEnd = fillEnd
        self.thumbCenter = thumbCenter
        self.thumbRadius = thumbRadius
    }

    /// The thumb's disc as a rectangle (without its shadow), as an engine reports it for damage.
    public var thumbBounds: SliderRect {
        SliderRect(x: thumbCenter.x - thumbRadius, y: thumbCenter.y - thumbRadius, width: 2 * thumbRadius, height: 2 * thumbRadius)
    }
}

/// The shape of a premultiplied ARGB8888 buffer (one native-endian UInt32 per pixel): its size and
/// row stride. The bytes themselves are handed over as a `MutableRawSpan`, for the one call.
public struct PixelLayout: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from one row to the next; a multiple of 4, at least `4 * width`.
    public var stride: Int

    /// Describes a buffer; `stride` defaults to tightly packed rows.
    public init(width: Int, height: Int, stride: Int? = nil) {
        self.width = width
        self.height = height
        self.stride = stride ?? width * 4
    }

    /// The bytes the buffer spans: every row's stride but the last row's, which needs only its
    /// pixels.
    public var byteCount: Int { height > 0 ? (height - 1) * stride + width * 4 : 0 }

    /// The whole buffer as a pixel rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
}
