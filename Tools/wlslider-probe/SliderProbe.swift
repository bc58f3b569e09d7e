// Finds wlslider's slider in a screenshot and measures it: where the track runs, where the thumb
// stands and how big it is, how far the fill reaches, and the value fraction those imply.
//
// The geometry follows wlslider's layout: the thumb's centre travels between the centres of the
// track's end caps, i.e. from (track start + T/2) to (track end − T/2), where T is the track's full
// thickness (the thick end, for a wedge). So
//     fraction = (thumb centre − track start − T/2) / (track length − T).
import PNGImage

/// Why no slider could be measured.
struct ProbeError: Error, CustomStringConvertible {
    let description: String
}

/// Horizontal, or vertical with the minimum at the bottom.
enum Orientation: String {
    case horizontal, vertical
}

/// What the probe measured. Positions "along" the axis are x for a horizontal slider and, for a
/// vertical one, pixels up from the image's bottom edge (so they grow with the value).
struct ProbeResult {
    var imageWidth: Int
    var imageHeight: Int
    var orientation: Orientation
    /// The slider's own background panel, when it is drawn (not in edge mode).
    var panel: PixelBox?
    /// The pixels of the visible track and fill.
    var trackBox: PixelBox
    /// Where the track starts and ends along the axis (a hidden end is inferred, see `startHidden`).
    var trackStart: Double
    var trackEnd: Double
    /// The track's full thickness across the axis.
    var trackThickness: Double
    /// The thumb covers that end of the track; its position was mirrored from the other end's
    /// margin inside the panel (the layout is symmetric), or is unknown without a panel.
    var startHidden: Bool
    var endHidden: Bool
    /// The thumb's centre in image coordinates, and along the axis.
    var thumbX: Double
    var thumbY: Double
    var thumbAlong: Double
    /// The diameter of a disc with the thumb's area, and the thumb's bounding box.
    var thumbDiameter: Double
    var thumbBox: PixelBox
    /// Where the visible fill ends along the track's centre line (it continues under the thumb).
    var fillEnd: Double?
    /// The visible fill runs up to the thumb's edge (within 1.5 px).
    var fillReachesThumb: Bool
    /// The value as a fraction of the range, or nil when an end of the track cannot be located.
    var fraction: Double?
}

/// Maps main/cross coordinates (u along the axis, growing with the value; v across) to image pixels.
struct AxisView {
    let orientation: Orientation
    let width: Int
    let height: Int

    var length: Int { orientation == .horizontal ? width : height }

    func pixel(u: Int, v: Int) -> (x: Int, y: Int) {
        orientation == .horizontal ? (u, v) : (v, height - 1 - u)
    }

    /// Continuous image coordinates → along the axis.
    func along(x: Double, y: Double) -> Double { orientation == .horizontal ? x : Double(height) - y }

    /// The image box spanning `u` along and `v` across the axis.
    func box(u: ClosedRange<Int>, v: ClosedRange<Int>) -> PixelBox {
        let a = pixel(u: u.lowerBound, v: v.lowerBound), b = pixel(u: u.upperBound, v: v.upperBound)
        return PixelBox(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y))
    }

    /// A box's extent along (u, pixel indices, inclusive) and across (v) the axis.
    func extents(_ box: PixelBox) -> (u: ClosedRange<Int>, v: ClosedRange<Int>) {
        orientation == .horizontal
            ? (box.minX...box.maxX, box.minY...box.maxY)
            : ((height - 1 - box.maxY)...(height - 1 - box.minY), box.minX...box.maxX)
    }
}

/// The analysis of one image.
struct SliderProbe {
    let map: PartMap

    init(image: PNGImage, colors: SliderColors = SliderColors()) {
        let surroundings = [dominantColor(of: image.pixels), RGB(red: 0, green: 0, blue: 0)]
        map = PartMap(width: image.width, height: image.height, pixels: image.pixels, colors: colors, surroundings: surroundings)
    }

    /// Measures the slider; throws when no track or no thumb on it is found.
    func measure() throws(ProbeError) -> ProbeResult {
        let pieces = map.label([.track, .fill])
        guard let (seed, within) = seedComponent(pieces), seed.count >= 8 else {
            throw ProbeError(description: "no slider found: no region of track or fill colour")
        }
        let view = AxisView(orientation: seed.box.width >= seed.box.height ? .horizontal : .vertical, width: map.width, height: map.height)
        let mask = trackMask(pieces: pieces, inLineWith: seed, within: within, view: view)
        let bounds = box(of: mask)
        guard bounds.minX <= bounds.maxX else { throw ProbeError(description: "no slider found: no track or fill pixels beside the thumb") }
        let v = crossRange(mask, view: view, bounds: bounds)
        let (u, thickness) = alongRange(mask, view: view, cross: v)
        let centreLine = (Double(v.lowerBound) + Double(v.upperBound) + 1) / 2
        let thumb = try findThumb(view: view, centreLine: centreLine, along: u)
        let trackBox = view.box(u: u, v: v)
        let panel = map.label([.panel]).components.sorted { $0.count > $1.count }.first { $0.box.contains(trackBox) }?.box

        var result = ProbeResult(
            imageWidth: map.width, imageHeight: map.height, orientation: view.orientation, panel: panel,
            trackBox: trackBox, trackStart: Double(u.lowerBound), trackEnd: Double(u.upperBound + 1),
            trackThickness: Double(thickness), startHidden: false, endHidden: false,
            thumbX: thumb.centroid.x, thumbY: thumb.centroid.y, thumbAlong: view.along(x: thumb.centroid.x, y: thumb.centroid.y),
            thumbDiameter: 2 * (Double(thumb.count) / Double.pi).squareRoot(), thumbBox: thumb.box,
            fillEnd: nil, fillReachesThumb: false, fraction: nil)
        resolveHiddenEnds(&result, view: view)
        measureFill(&result, view: view, row: Int(centreLine), u: u)
        result.fraction = fraction(result)
        return result
    }

    /// Where the track is sought from: the largest region of track or fill colour that lies inside
    /// a panel (a region of the slider's own background), with that panel's box, so that what
    /// surrounds a window and comes near the track's or fill's colour (libdecor's inactive title
    /// bar, #303030, and its shadow; sway's blue border) is never taken for part of it; the largest
    /// region anywhere, and no box, when no panel holds one (edge mode draws no panel).
    private func seedComponent(_ pieces: Labels) -> (seed: Component, within: PixelBox?)? {
        let panels = map.label([.panel]).components.filter { $0.count >= 400 }
        for piece in pieces.components.filter({ $0.count >= 8 }).sorted(by: { $0.count > $1.count }) {
            if let panel = panels.first(where: { $0.box.contains(piece.box) }) { return (piece, panel.box) }
        }
        return pieces.largest.map { (pieces.components[Int($0)], nil) }
    }

    /// Track and fill pixels of the slider: the largest region of those colours and the regions in
    /// line with it (the thumb and its shadow cut the track in two, more at high scales), without
    /// the grey ring where the thumb's antialiased edge blends into a dark background (greys nearest
    /// to the track's colour). Such regions elsewhere on the screen (a cursor's edge) are left out.
    private func trackMask(pieces: Labels, inLineWith seed: Component, within: PixelBox?, view: AxisView) -> [Bool] {
        var inLine = piecesInLine(pieces.components, with: seed, view: view)
        if let within {
            for index in inLine.indices where !within.contains(pieces.components[index].box) { inLine[index] = false }
        }
        var mask = [Bool](repeating: false, count: map.width * map.height)
        for y in 0..<map.height {
            for x in 0..<map.width {
                let label = pieces.labels[y * map.width + x]
                guard label >= 0, inLine[Int(label)] else { continue }
                let part = map[x, y]
                mask[y * map.width + x] = part == .fill || (part == .track && !map.near(x: x, y: y, reach: 2, .thumb))
            }
        }
        return mask
    }

    /// The regions overlapping the seed across the axis and chained to it along the axis with gaps
    /// of at most half the seed's length (room for a grown thumb and its shadow between pieces).
    private func piecesInLine(_ components: [Component], with seed: Component, view: AxisView) -> [Bool] {
        let seedExtents = view.extents(seed.box)
        let gap = seedExtents.u.count / 2
        var span = seedExtents.u
        var inLine = components.map { _ in false }
        var grew = true
        while grew {
            grew = false
            for (index, component) in components.enumerated() where !inLine[index] {
                let extents = view.extents(component.box)
                guard extents.v.overlaps(seedExtents.v), extents.u.overlaps((span.lowerBound - gap)...(span.upperBound + gap)) else { continue }
                inLine[index] = true
                span = min(span.lowerBound, extents.u.lowerBound)...max(span.upperBound, extents.u.upperBound)
                grew = true
            }
        }
        return inLine
    }

    private func box(of mask: [Bool]) -> PixelBox {
        var box = PixelBox(minX: .max, minY: .max, maxX: .min, maxY: .min)
        for index in mask.indices where mask[index] { box.include(x: index % map.width, y: index / map.width) }
        return box
    }

    /// The track's extent across the axis: the rows (columns) holding at least 5 % as many track
    /// pixels as the fullest one, so a few stray pixels (a cursor's edge) do not widen it while a
    /// wedge's outer rows, present only near its thick end, still count.
    private func crossRange(_ mask: [Bool], view: AxisView, bounds: PixelBox) -> ClosedRange<Int> {
        let (u, v) = view.extents(bounds)
        let counts = v.map { across in u.reduce(0) { n, along in n + (isTrack(mask, view, along, across) ? 1 : 0) } }
        let threshold = max(1, counts.max()! / 20)
        let kept = counts.indices.filter { counts[$0] >= threshold }
        return (v.lowerBound + kept.first!)...(v.lowerBound + kept.last!)
    }

    /// The track's extent along the axis within its cross band, and its full thickness (the most
    /// track pixels in one column across the axis).
    private func alongRange(_ mask: [Bool], view: AxisView, cross: ClosedRange<Int>) -> (ClosedRange<Int>, Int) {
        var first = Int.max, last = Int.min, thickness = 0
        for along in 0..<view.length {
            let n = cross.reduce(0) { n, across in n + (isTrack(mask, view, along, across) ? 1 : 0) }
            guard n > 0 else { continue }
            first = min(first, along)
            last = max(last, along)
            thickness = max(thickness, n)
        }
        return (first...last, thickness)
    }

    private func isTrack(_ mask: [Bool], _ view: AxisView, _ along: Int, _ across: Int) -> Bool {
        let p = view.pixel(u: along, v: across)
        return mask[p.y * map.width + p.x]
    }

    /// The largest region of thumb colour crossing the track's centre line within the track's
    /// reach (a cursor's white elsewhere is a smaller region or off the line).
    private func findThumb(view: AxisView, centreLine: Double, along u: ClosedRange<Int>) throws(ProbeError) -> Component {
        let row = Int(centreLine)
        let candidates = map.label([.thumb]).components.filter { component in
            let extents = view.extents(component.box)
            let reach = extents.u.count
            return extents.v.contains(row) && extents.u.overlaps((u.lowerBound - reach)...(u.upperBound + reach))
        }
        guard let thumb = candidates.max(by: { $0.count < $1.count }) else {
            throw ProbeError(description: "no thumb found: no region of thumb colour crosses the track's centre line (\(row))")
        }
        return thumb
    }

    /// An end of the track under the thumb is not where the visible track pixels stop: mirror the
    /// other end's margin inside the panel instead (wlslider insets both ends equally).
    private func resolveHiddenEnds(_ r: inout ProbeResult, view: AxisView) {
        let radius = r.thumbDiameter / 2
        r.startHidden = r.thumbAlong - radius <= r.trackStart + 0.5
        r.endHidden = r.thumbAlong + radius >= r.trackEnd - 0.5
        guard let panel = r.panel, r.startHidden != r.endHidden else { return }
        let p = view.extents(panel).u
        let (panelStart, panelEnd) = (Double(p.lowerBound), Double(p.upperBound + 1))
        if r.startHidden { r.trackStart = panelStart + (panelEnd - r.trackEnd) } else { r.trackEnd = panelEnd - (r.trackStart - panelStart) }
    }

    /// The fill's visible end on the centre line: the last fill pixel of the run from the track's start.
    private func measureFill(_ r: inout ProbeResult, view: AxisView, row: Int, u: ClosedRange<Int>) {
        func part(_ along: Int) -> Part {
            let p = view.pixel(u: along, v: row)
            return map[p.x, p.y]
        }
        var along = u.lowerBound
        while along <= u.upperBound && part(along) != .fill { along += 1 }
        guard along <= u.upperBound else { return }
        while along < u.upperBound && part(along + 1) == .fill { along += 1 }
        r.fillEnd = Double(along + 1)
        r.fillReachesThumb = abs(Double(along + 1) - (r.thumbAlong - r.thumbDiameter / 2)) <= 1.5
    }

    private func fraction(_ r: ProbeResult) -> Double? {
        if r.startHidden && r.endHidden { return nil }
        if (r.startHidden || r.endHidden) && r.panel == nil { return nil }
        let travel = r.trackEnd - r.trackStart - r.trackThickness
        guard travel > 0 else { return nil }
        return (r.thumbAlong - r.trackStart - r.trackThickness / 2) / travel
    }
}
