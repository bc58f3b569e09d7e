// What lies under the thumb — background, track and value fill — without a composite per frame.
//
// Every pixel of the track's box is the background with one colour composited over it through
// the track's coverage: the fill colour before the fill's end, the track colour after it, and
// their mix on the one pixel column (row, when vertical) the end crosses. So the box is rendered
// ahead of time twice, once entirely empty and once entirely filled, and a frame copies each
// damaged row from one or the other and works out the few pixels of the crossed column with
// pixman's own arithmetic (Blend.swift): the layer-by-layer composite's pixels, bit for bit.
import Glibc
import SliderEngine

/// The background and the track over the track's box (its part inside the buffer), pre-rendered
/// empty and filled; made again only when the track's geometry or the colours change.
final class Backdrop {
    let track: TaperedCapsule
    let axis: Orientation
    /// The track's pixels inside the buffer, in buffer pixels.
    let box: PixelRect
    private let coverage: PixmanImage
    private let empty: PixmanImage
    private let filled: PixmanImage

    /// Rasterizes the track of `layout` over `box` and composites both versions of it.
    init(layout: DeviceLayout, box: PixelRect, paints: Paints) {
        track = layout.track
        axis = layout.axis
        self.box = box
        let mask = PlacedImage(maskOver: box) { layout.trackCoverage(column: $0, row: $1) }.image
        func rendered(_ colour: PixmanImage) -> PixmanImage {
            let image = PixmanImage(argbWidth: box.width, height: box.height)
            let whole = PixelRect(x: 0, y: 0, width: box.width, height: box.height)
            image.composite(.source, paints.background, area: whole)
            image.composite(.over, colour, mask: mask, area: whole)
            return image
        }
        coverage = mask
        empty = rendered(paints.track)
        filled = rendered(paints.fill)
    }

    /// Whether this backdrop serves `layout` over `box`.
    func matches(_ layout: DeviceLayout, box: PixelRect) -> Bool {
        track == layout.track && axis == layout.axis && self.box == box
    }

    /// What a frame with the fill ending at `fillEnd` (main-axis buffer coordinate) copies and
    /// blends to paint `area`; valid while this backdrop lives.
    func frame(fillEnd: Double, paints: Paints, area: PixelRect) -> BackdropFrame {
        guard let empty = empty.rows, let filled = filled.rows, let coverage = coverage.rows else {
            preconditionFailure("Backdrop: its images own their pixels")
        }
        let horizontal = axis == .horizontal
        let boundary = Int(floor(fillEnd))
        // The mix for the column (row) the boundary crosses, when the area shows it; vertical
        // fills grow from the bottom.
        var edgeColour: UInt32 = 0
        if horizontal ? area.x..<area.maxX ~= boundary : area.y..<area.maxY ~= boundary {
            edgeColour = paints.mix(fillShare: horizontal ? fillEnd - Double(boundary) : Double(boundary + 1) - fillEnd)
        }
        return BackdropFrame(box: box, horizontal: horizontal, empty: empty, filled: filled, coverage: coverage,
                             boundary: boundary, edgeColour: edgeColour, background: paints.backgroundARGB)
    }
}

/// One frame's view of a backdrop: the rows to copy and the fill's boundary.
struct BackdropFrame {
    let box: PixelRect
    let horizontal: Bool
    let empty: PixelRows
    let filled: PixelRows
    let coverage: PixelRows
    /// The column (row, when vertical) the fill's end crosses.
    let boundary: Int
    /// Fill and track colours mixed in proportion for that column (row).
    let edgeColour: UInt32
    let background: UInt32

    /// Writes columns `left ..< right` of buffer row `y` into `out` (the row's first pixel); the
    /// columns and the row lie inside the box.
    @inline(__always)
    func paintRow(_ y: Int, from left: Int, to right: Int, into out: UnsafeMutablePointer<UInt32>) {
        let row = y - box.y
        if horizontal {
            // Fill colour left of the boundary column, track colour right of it.
            let fillEnd = min(max(boundary, left), right)
            copyPixels(filled.argb(row) + (left - box.x), to: out + left, count: fillEnd - left)
            var trackStart = fillEnd
            if boundary >= left && boundary < right {
                out[boundary] = over(edgeColour, coverage: coverage.alpha(row)[boundary - box.x], onto: background)
                trackStart = boundary + 1
            }
            copyPixels(empty.argb(row) + (trackStart - box.x), to: out + trackStart, count: right - trackStart)
        } else if y != boundary {
            // Vertical: the minimum is at the bottom, so the rows below the boundary are filled.
            copyPixels((y > boundary ? filled : empty).argb(row) + (left - box.x), to: out + left, count: right - left)
        } else {
            let cover = coverage.alpha(row)
            for x in left..<right { out[x] = over(edgeColour, coverage: cover[x - box.x], onto: background) }
        }
    }
}
