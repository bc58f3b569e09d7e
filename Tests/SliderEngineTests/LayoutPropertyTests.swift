import PropertyBased
import Testing
@testable import SliderEngine

/// A surface side as compositors (and users) hand them out: empty, one pixel, a fraction of a
/// pixel, small whole numbers, non-integers, and far larger than any screen.
let sideGen = zip(Gen.int(in: 0...6), Gen.double(in: 0...1)).map { kind, u -> Double in
    switch kind {
    case 0: 0
    case 1: 1
    case 2: u * 2
    case 3: (u * 80).rounded()
    case 4: u * 600
    case 5: [16384, 1e6, 1e300][min(Int(u * 3), 2)]
    default: [30, 37, 38, 48, 320][min(Int(u * 5), 4)]
    }
}

/// A length in logical pixels for the configured shapes: tiny to huge.
let shapeLengthGen = zip(Gen.int(in: 0...3), Gen.double(in: 0...1)).map { kind, u -> Double in
    switch kind {
    case 0: 1e-3 + u
    case 1: 1 + (u * 100).rounded()
    case 2: u * 5000 + 1e-3
    default: [16384, 1e9, 1e300][min(Int(u * 3), 2)]
    }
}

/// A configuration with random shapes: orientation, edge, thickness, thumb and track sizes and
/// the thumb's growth (1…10).
let shapeConfigurationGen = zip(Gen.int(in: 0...5), shapeLengthGen, Gen.double(in: 1...10),
                                Gen.int(in: 0...2), shapeLengthGen, shapeLengthGen)
    .map { kind, thickness, thumbScale, optional, diameter, track -> SliderConfiguration in
        var c = SliderConfiguration()
        c.orientation = kind % 2 == 0 ? .horizontal : .vertical
        switch kind / 2 {
        case 1: c.edge = c.orientation == .horizontal ? .top : .left
        case 2: c.edge = c.orientation == .horizontal ? .bottom : .right
        default: break
        }
        c.thickness = thickness
        c.thumbScale = [1, 10, thumbScale][optional]
        if optional != 0 { c.thumbDiameter = diameter }
        if optional != 1 { c.trackThickness = track }
        return c
    }

/// Whether a rectangle is finite and not inverted.
func isSound(_ r: SliderRect) -> Bool {
    r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite && r.width >= 0 && r.height >= 0
}

@Suite("Layout on any surface")
struct LayoutPropertyTests {
    /// The sizes the issue reports trapped: a horizontal slider given a vertical size, a window
    /// narrower than the grown thumb.
    @Test("reported sizes lay out without trapping: 48x320, 100x200, 37x48, 30x48, 0x0, 1x1")
    func reportedSizes() {
        for (w, h) in [(48.0, 320.0), (100, 200), (37, 48), (30, 48), (0, 0), (1, 1)] {
            for orientation in Orientation.allCases {
                var c = SliderConfiguration()
                c.orientation = orientation
                // As the command line does: the size's side across the axis is the thickness.
                c.thickness = max(orientation == .horizontal ? h : w, 1)
                let layout = SliderLayout(configuration: c, size: SliderSize(width: w, height: h))
                #expect(isSound(layout.track(shift: 0)), "\(w)x\(h) \(orientation): \(layout)")
                #expect(layout.grownThumbRadius * 2 <= min(layout.length / 2, layout.breadth) + 1e-9, "\(w)x\(h) \(orientation)")
            }
        }
    }

    @Test("any size, orientation, edge, thickness, thumb and scale: finite, non-inverted, thumb on the band and the surface, positions round-trip")
    func invariants() async {
        await propertyCheck(count: 2000, input: shapeConfigurationGen, sideGen, sideGen) { c, width, height in
            let layout = SliderLayout(configuration: c, size: SliderSize(width: width, height: height))
            let numbers = [layout.thumbRadius, layout.grownThumbRadius, layout.trackThickness, layout.inset,
                           layout.travel, layout.length, layout.breadth, layout.hiddenShift]
            #expect(numbers.allSatisfy { $0.isFinite && $0 >= 0 }, "\(layout)")
            #expect(layout.travel >= 0 && layout.inset >= 0)
            if layout.length >= 1 { #expect(layout.travel >= 1, "travel \(layout.travel) on \(layout.size)") }
            // The thumb keeps its proportions: grown = resting × scale.
            #expect(abs(layout.grownThumbRadius - layout.thumbRadius * c.thumbScale) <= 1e-9 * max(layout.grownThumbRadius, 1))
            for shift in [0, layout.hiddenShift / 2, layout.hiddenShift] {
                let track = layout.track(shift: shift), band = layout.band(shift: shift)
                #expect(isSound(track) && isSound(band) && isSound(layout.visibleBand(shift: shift)), "\(layout) shift \(shift)")
                let (bandLow, bandHigh) = layout.orientation == .horizontal ? (band.minY, band.maxY) : (band.minX, band.maxX)
                let (trackLow, trackHigh) = layout.orientation == .horizontal ? (track.minY, track.maxY) : (track.minX, track.maxX)
                let tolerance = 1e-9 * max(layout.thickness, 1)
                #expect(trackLow >= bandLow - tolerance && trackHigh <= bandHigh + tolerance, "track outside the band: \(layout)")
                for f in [0, 0.25, 0.5, 1] {
                    let centre = layout.thumbCenter(fraction: f, shift: shift)
                    #expect(centre.isFinite, "\(layout) f \(f)")
                    // Across the axis, the grown thumb lies within the band.
                    let across = layout.across(centre)
                    #expect(across - layout.grownThumbRadius >= bandLow - tolerance
                            && across + layout.grownThumbRadius <= bandHigh + tolerance,
                            "grown thumb r \(layout.grownThumbRadius) sticks out of the band \(band): \(layout)")
                    // Along the axis, the centre is on the surface.
                    if layout.length > 0 {
                        let along = layout.along(centre)
                        #expect(along >= 0 && along <= layout.length, "thumb centre \(along) off a surface \(layout.length) long")
                    }
                    if layout.travel >= 1 {
                        let back = layout.fraction(forPosition: layout.position(forFraction: f))
                        #expect(abs(back - f) <= 1e-9, "\(f) → \(back) on \(layout)")
                    }
                }
            }
            if layout.length >= 2 {
                // The grown thumb (and its shadow room, when there is room for it) stays on the surface.
                let first = layout.along(layout.thumbCenter(fraction: 0, shift: 0))
                let last = layout.along(layout.thumbCenter(fraction: 1, shift: 0))
                #expect(min(first, last) - layout.grownThumbRadius >= -1e-9 * layout.length)
                #expect(max(first, last) + layout.grownThumbRadius <= layout.length * (1 + 1e-12))
            }
        }
    }
}
