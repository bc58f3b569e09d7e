/// Where the slider's parts lie on a surface of a given size, and the mapping between values and
/// positions. Pure geometry in logical pixels; no animation state.
///
/// The slider is a band `thickness` thick that runs the whole length of the surface along its axis.
/// The thumb centre travels between two points inset from the ends by the grown thumb's radius
/// (plus a little room for its shadow), so the thumb stays inside the surface at both ends. A
/// surface thicker than the band centres it, except in edge mode, where the band lies against the
/// edge and a *shift* pushes it beyond the edge (half hidden at `hiddenShift`).
///
/// Any surface gets a valid layout, however small, large or oddly shaped (a compositor decides
/// the size): the configured shapes are clamped to what fits.
/// - The grown thumb's diameter is at most the band (the configured thickness, or the surface's
///   breadth when that is less) and at most half the surface's length, so that at least half the
///   length is left for the thumb to travel. The resting thumb keeps its ratio to the grown one
///   (grown ÷ thumb scale). The default 320x48 slider is far from these limits.
/// - The drawn track is at most as thick as the band, and at most half the length thick (its
///   round ends reach under the thumb at the extremes, so it too sets a minimum inset).
/// - The inset is at most (length − 1) / 2, so that the thumb centre travels at least one pixel
///   on any surface at least one pixel long, and stays on the surface on a shorter one.
/// So the track's bounds are never inverted, and every coordinate is finite for any finite size;
/// a size that is negative, NaN or infinite counts as 0.
public struct SliderLayout: Sendable, Equatable {
    /// Room left around the grown thumb for its shadow, in logical pixels.
    public static let shadowRoom: Double = 2

    /// The surface size (non-finite or negative sides replaced by 0).
    public let size: SliderSize
    public let orientation: Orientation
    public let edge: ScreenEdge?
    public let thickness: Double
    public let thumbRadius: Double
    public let grownThumbRadius: Double
    public let trackThickness: Double
    /// Distance from each end of the surface to the thumb centre's extreme positions.
    public let inset: Double

    public init(configuration c: SliderConfiguration, size: SliderSize) {
        func side(_ v: Double) -> Double { v.isFinite ? max(v, 0) : 0 }
        let size = SliderSize(width: side(size.width), height: side(size.height))
        self.size = size
        orientation = c.orientation
        edge = c.edge
        thickness = c.thickness
        let length = c.orientation == .horizontal ? size.width : size.height
        let breadth = c.orientation == .horizontal ? size.height : size.width
        let band = min(c.thickness, breadth)
        // The largest grown radius that fits; a configured thumb within it keeps its exact size.
        let fits = min(band / 2, length / 4)
        let resting = c.resolvedThumbDiameter / 2, grown = resting * c.thumbScale
        if grown <= fits {
            thumbRadius = resting
            grownThumbRadius = grown
        } else {
            grownThumbRadius = fits
            thumbRadius = fits / c.thumbScale
        }
        trackThickness = min(c.resolvedTrackThickness, band, length / 2)
        let wanted = max(grownThumbRadius + Self.shadowRoom, trackThickness / 2)
        inset = min(wanted, max((length - 1) / 2, 0))
    }

    /// Surface length along the slider's axis.
    public var length: Double { orientation == .horizontal ? size.width : size.height }
    /// Surface extent across the slider's axis.
    public var breadth: Double { orientation == .horizontal ? size.height : size.width }
    /// How far the thumb centre travels from minimum to maximum: at least one pixel on a surface
    /// at least one pixel long; 0 on an empty one.
    public var travel: Double { max(length - 2 * inset, 0) }
    /// The travel that input maps onto: never under one pixel, so that a one-pixel movement never
    /// covers more than the whole range.
    public var inputTravel: Double { max(travel, 1) }
    /// How far an edge-mode slider is pushed beyond its edge when hidden: half its thickness.
    public var hiddenShift: Double { edge == nil ? 0 : thickness / 2 }

    /// +1 when the value grows with the coordinate along the axis (horizontal), -1 otherwise.
    var direction: Double { orientation == .horizontal ? 1 : -1 }

    /// The coordinate of `p` along the slider's axis.
    public func along(_ p: SliderPoint) -> Double { orientation == .horizontal ? p.x : p.y }
    /// The coordinate of `p` across the slider's axis.
    public func across(_ p: SliderPoint) -> Double { orientation == .horizontal ? p.y : p.x }

    /// The axis coordinate of the thumb centre for a fraction of the range (0 = minimum).
    public func position(forFraction f: Double) -> Double {
        orientation == .horizontal ? inset + f * travel : size.height - inset - f * travel
    }

    /// The fraction of the range (clamped to 0...1) whose thumb centre is at axis coordinate `a`.
    public func fraction(forPosition a: Double) -> Double {
        let f = orientation == .horizontal ? (a - inset) / inputTravel : (size.height - inset - a) / inputTravel
        return f.isNaN ? 0 : min(max(f, 0), 1)
    }

    /// The fraction of the range that a movement of `delta` pixels along the axis covers.
    public func fraction(forMovement delta: Double) -> Double { delta * direction / inputTravel }

    /// The across-axis coordinate of the band's centre line for an edge shift.
    public func centerLine(shift: Double) -> Double {
        switch edge {
        case nil: breadth / 2
        case .left?, .top?: thickness / 2 - shift
        case .right?, .bottom?: breadth - thickness / 2 + shift
        }
    }

    /// A rectangle spanning `along` on the axis and `across` across it.
    func rect(along a: ClosedRange<Double>, across c: ClosedRange<Double>) -> SliderRect {
        orientation == .horizontal
            ? SliderRect(x: a.lowerBound, y: c.lowerBound, width: a.upperBound - a.lowerBound, height: c.upperBound - c.lowerBound)
            : SliderRect(x: c.lowerBound, y: a.lowerBound, width: c.upperBound - c.lowerBound, height: a.upperBound - a.lowerBound)
    }

    /// The whole band of the slider, which may extend beyond the surface in edge mode.
    public func band(shift: Double) -> SliderRect {
        let c = centerLine(shift: shift)
        return rect(along: 0...length, across: (c - thickness / 2)...(c + thickness / 2))
    }

    /// The part of the band on the surface: what the user sees and may touch.
    public func visibleBand(shift: Double) -> SliderRect {
        band(shift: shift).intersection(SliderRect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// The bounding box of the drawn track: the thumb's travel, extended by half the track's
    /// thickness at both ends so round ends sit under the thumb at the extremes.
    public func track(shift: Double) -> SliderRect {
        let c = centerLine(shift: shift), t = trackThickness / 2
        return rect(along: (inset - t)...(length - inset + t), across: (c - t)...(c + t))
    }

    /// The thumb centre for a fraction of the range.
    public func thumbCenter(fraction f: Double, shift: Double) -> SliderPoint {
        let a = position(forFraction: f), c = centerLine(shift: shift)
        return orientation == .horizontal ? SliderPoint(x: a, y: c) : SliderPoint(x: c, y: a)
    }

    /// The square bounding a thumb of `radius` around `center`.
    public func thumbBounds(center: SliderPoint, radius: Double) -> SliderRect {
        SliderRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    }

    /// The part of the track between two axis coordinates (where the fill boundary moved).
    func trackSpan(from a: Double, to b: Double, shift: Double) -> SliderRect {
        let c = centerLine(shift: shift), t = trackThickness / 2
        return rect(along: min(a, b)...max(a, b), across: (c - t)...(c + t))
    }
}
