// Shapes as signed distance functions, and the analytic antialiasing that turns a distance
// into pixel coverage. Pure maths in buffer pixels: no pixman, no buffers.
import Glibc

/// Coverage of a pixel whose centre lies `distance` buffer pixels outside a shape's edge
/// (negative inside): a one-pixel linear ramp centred on the edge, which is exact for a
/// straight edge crossing the pixel square perpendicular to an axis and visually crisp for curves.
@inline(__always)
func edgeCoverage(_ distance: Double) -> Double {
    min(max(0.5 - distance, 0), 1)
}

/// Converts a 0...1 coverage to the nearest 8-bit alpha (NaN, which no finite shape gives,
/// as 0 rather than a trap).
@inline(__always)
func alphaByte(_ coverage: Double) -> UInt8 {
    coverage > 0 ? UInt8(min(coverage, 1) * 255 + 0.5) : 0
}

/// Two circles on the main axis joined by their outer tangent lines: a capsule when the radii
/// are equal, the wedge's tapered bar when they differ.
///
/// `u` is the main-axis coordinate, `v` the cross-axis one; circle A sits at `u = uA`,
/// circle B at `u = uB ≥ uA`, both on the centre line `v = centreV`.
struct TaperedCapsule: Equatable {
    var uA: Double
    var radiusA: Double
    var uB: Double
    var radiusB: Double
    var centreV: Double

    /// Signed distance from (`u`, `v`) to the outline: negative inside.
    func signedDistance(u: Double, v: Double) -> Double {
        let along = u - uA, across = abs(v - centreV)
        let length = uB - uA
        let slope = length > 0 ? (radiusA - radiusB) / length : 2
        if abs(slope) >= 1 {
            // One circle swallows the other: the shape is their union.
            return min(hypot(along, across) - radiusA, hypot(u - uB, across) - radiusB)
        }
        // The tangent lines touch circle A at the angle whose cosine/sine are (normalAcross,
        // slope): points "behind" that normal belong to circle A's cap, points beyond the
        // matching point on B to circle B's cap, the rest to the straight flank.
        let normalAcross = (1 - slope * slope).squareRoot()
        let k = normalAcross * along - slope * across
        if k < 0 { return hypot(along, across) - radiusA }
        if k > normalAcross * length { return hypot(u - uB, across) - radiusB }
        return normalAcross * across + slope * along - radiusA
    }
}

/// The thumb's disc.
struct Disc: Equatable {
    var centreX: Double
    var centreY: Double
    var radius: Double

    func signedDistance(x: Double, y: Double) -> Double {
        hypot(x - centreX, y - centreY) - radius
    }

    /// Opacity of the disc blurred by a Gaussian of standard deviation `sigma`, at a point
    /// `distance` from its edge: the 1-D error-function profile, accurate when the radius is a
    /// few sigma or more (the thumb always is) and cheap to evaluate.
    static func blurredCoverage(distance: Double, sigma: Double) -> Double {
        0.5 * erfc(distance / (sigma * 2.0.squareRoot()))
    }
}
