// What lies under the thumb — background, track and value fill — without a composite per frame.
//
// Every pixel of the track's box is the background with one colour composited over it through
// the track's coverage: the fill colour before the fill's end, the track colour after it, and
// their mix on the one pixel column (row, when vertical) the end crosses. So the box is rendered
// ahead of time twice, once entirely empty and once entirely filled, and a frame copies each
// damaged row from one or the other, works out the few pixels of the crossed column with
// pixman's own arithmetic and writes the plain background everywhere else. The result is the
// layer-by-layer composite's, bit for bit; only the rasterizing and compositing moved out of
// the frame.
import Glibc
import SliderEngine

/// The background and the track over the track's box (its part inside the buffer), pre-rendered
/// empty and filled; made again only when the track's geometry or the colours change.
struct Backdrop {
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
            let image = PixmanImage(argbWidth: box.width, height: box.height) { _, _ in 0 }
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

    /// Paints the background, track and fill of `layout` into `area` (inside the buffer) of `canvas`.
    func paint(_ area: PixelRect, of layout: DeviceLayout, paints: Paints, into canvas: PixelRows) {
        guard let empty = empty.rows, let filled = filled.rows, let coverage = coverage.rows else { return }
        let boundary = Int(floor(layout.fillEnd))
        let background = paints.backgroundARGB
        let (x0, x1) = (area.x, area.maxX)
        // The box's columns inside the area: [left, right).
        let left = min(max(box.x, x0), x1), right = max(min(box.maxX, x1), left)
        // The mix on the boundary's column (row), when the area shows it.
        let edgeColour = axis == .horizontal
            ? (boundary >= left && boundary < right ? paints.mix(fillShare: layout.fillEnd - Double(boundary)) : 0)
            : (boundary >= area.y && boundary < area.maxY ? paints.mix(fillShare: Double(boundary + 1) - layout.fillEnd) : 0)
        for y in area.y..<area.maxY {
            let out = canvas.argb(y)
            guard y >= box.y && y < box.maxY && left < right else {
                Self.fill(out + x0, background, count: x1 - x0)
                continue
            }
            let row = y - box.y
            Self.fill(out + x0, background, count: left - x0)
            if axis == .horizontal {
                // Fill colour left of the boundary column, track colour right of it.
                let fillEnd = min(max(boundary, left), right)
                Self.copy(filled.argb(row) + (left - box.x), to: out + left, count: fillEnd - left)
                var trackStart = fillEnd
                if boundary >= left && boundary < right {
                    out[boundary] = over(edgeColour, coverage: coverage.alpha(row)[boundary - box.x], onto: background)
                    trackStart = boundary + 1
                }
                Self.copy(empty.argb(row) + (trackStart - box.x), to: out + trackStart, count: right - trackStart)
            } else if y != boundary {
                // Vertical: the minimum is at the bottom, so the rows below the boundary are filled.
                let source = y > boundary ? filled : empty
                Self.copy(source.argb(row) + (left - box.x), to: out + left, count: right - left)
            } else {
                let cover = coverage.alpha(row)
                for x in left..<right { out[x] = over(edgeColour, coverage: cover[x - box.x], onto: background) }
            }
            Self.fill(out + right, background, count: x1 - right)
        }
    }

    /// Paints `area` of `canvas` with the background alone (no track in the buffer).
    static func paintBackground(_ area: PixelRect, paints: Paints, into canvas: PixelRows) {
        for y in area.y..<area.maxY { fill(canvas.argb(y) + area.x, paints.backgroundARGB, count: area.width) }
    }

    @inline(__always)
    private static func fill(_ pixels: UnsafeMutablePointer<UInt32>, _ value: UInt32, count: Int) {
        guard count > 0 else { return }
        pixels.update(repeating: value, count: count)
    }

    @inline(__always)
    private static func copy(_ source: UnsafeMutablePointer<UInt32>, to destination: UnsafeMutablePointer<UInt32>, count: Int) {
        guard count > 0 else { return }
        destination.update(from: source, count: count)
    }
}
