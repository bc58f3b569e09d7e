// From a logical scene to buffer-pixel geometry.
//
// Two deliberate adjustments happen here, both smaller than the 1-pixel damage margin:
// - the track's cross-axis edges snap to whole buffer pixels, so its long straight edges are
//   crisp at fractional scales (1.25, 1.5) instead of a half-covered grey row; the thumb moves
//   with the track so the two stay concentric;
// - the thumb's centre is quantized to 1/4 pixel and its radius to 1/16 pixel, so a handful of
//   cached masks serve every position of a resting thumb (subpixel motion without resampling).
// A third one only touches geometry far outside any buffer: every coordinate is clamped to
// ±`DeviceLayout.coordinateLimit`, so the Int conversions below cannot trap whatever the scene's
// size and scale.
import Glibc
import SliderEngine

/// Quantization steps of the thumb, in buffer pixels.
enum ThumbQuantum {
    static let positionSteps = 4.0
    static let radiusSteps = 16.0
}

/// The scene in buffer pixels, ready to rasterize and composite.
struct DeviceLayout: Equatable {
    /// The largest buffer coordinate (and thumb radius) kept as it is; beyond, the shapes are
    /// clamped. 2^24 pixels is far beyond any buffer (pixman's own limit is 2^15 per side for
    /// many operations) and leaves room for Int arithmetic on it.
    static let coordinateLimit = Double(1 << 24)

    var axis: Orientation
    /// The track outline, in main/cross coordinates (u/v): x/y for horizontal, y/x for vertical.
    var track: TaperedCapsule
    /// The pixels the track's mask covers.
    var trackBox: PixelRect
    /// Main-axis coordinate where the fill stops, clamped to the track.
    var fillEnd: Double
    /// The thumb, quantized.
    var thumb: Disc

    init(scene: SliderScene, scale: Double, shape: TrackShape) {
        axis = scene.axis
        let horizontal = scene.axis == .horizontal
        let rect = scene.track
        // Main axis: exact. Cross axis: edges rounded to whole pixels, at least one pixel thick.
        func device(_ logical: Double) -> Double {
            min(max(logical * scale, -Self.coordinateLimit), Self.coordinateLimit)
        }
        let (mainLow, mainHigh) = horizontal ? (device(rect.x), device(rect.maxX)) : (device(rect.y), device(rect.maxY))
        let crossLowRaw = device(horizontal ? rect.y : rect.x)
        let crossHighRaw = device(horizontal ? rect.maxY : rect.maxX)
        let crossLow = crossLowRaw.rounded()
        let crossHigh = max(crossHighRaw.rounded(), crossLow + 1)
        let snapShift = (crossLow + crossHigh - crossLowRaw - crossHighRaw) / 2

        track = Self.outline(shape: shape, axis: scene.axis, main: (mainLow, max(mainHigh, mainLow)),
                             cross: (crossLow, crossHigh), scale: scale)
        let mainBox = (Int(floor(mainLow)), Int(ceil(max(mainHigh, mainLow))))
        trackBox = horizontal
            ? PixelRect(x: mainBox.0, y: Int(crossLow), width: mainBox.1 - mainBox.0, height: Int(crossHigh - crossLow))
            : PixelRect(x: Int(crossLow), y: mainBox.0, width: Int(crossHigh - crossLow), height: mainBox.1 - mainBox.0)
        fillEnd = min(max(scene.fillEnd * scale, mainLow), max(mainHigh, mainLow))

        let q = ThumbQuantum.positionSteps
        var centreX = device(scene.thumbCenter.x), centreY = device(scene.thumbCenter.y)
        if horizontal { centreY += snapShift } else { centreX += snapShift }
        thumb = Disc(centreX: (centreX * q).rounded() / q, centreY: (centreY * q).rounded() / q,
                     radius: (device(max(scene.thumbRadius, 0)) * ThumbQuantum.radiusSteps).rounded() / ThumbQuantum.radiusSteps)
    }

    /// The capsule or wedge inside the (snapped) track box. Circle A is at the low main
    /// coordinate: the minimum end for horizontal, the MAXIMUM end for vertical (min at the bottom).
    private static func outline(shape: TrackShape, axis: Orientation, main: (Double, Double),
                                cross: (Double, Double), scale: Double) -> TaperedCapsule {
        let length = main.1 - main.0
        let full = min((cross.1 - cross.0) / 2, length / 2)
        // The wedge's thin end: ≈1 % of the length, never under one logical pixel (it would
        // vanish into antialiasing) nor above the full radius.
        let thin = shape == .wedge ? min(max(0.01 * length, scale), full) : full
        let (lowRadius, highRadius) = axis == .horizontal ? (thin, full) : (full, thin)
        return TaperedCapsule(uA: main.0 + lowRadius, radiusA: lowRadius,
                              uB: main.1 - highRadius, radiusB: highRadius,
                              centreV: (cross.0 + cross.1) / 2)
    }

    /// Coverage of buffer pixel (`column`, `row`) by the track.
    func trackCoverage(column: Int, row: Int) -> Double {
        let x = Double(column) + 0.5, y = Double(row) + 0.5
        let d = axis == .horizontal ? track.signedDistance(u: x, v: y) : track.signedDistance(u: y, v: x)
        return edgeCoverage(d)
    }
}
