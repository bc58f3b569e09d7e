// How the slider looks: shapes and colours chosen by the user, plus the fixed look of the
// thumb's shadow.

/// The outline of the track.
public enum TrackShape: Sendable, Equatable {
    /// A bar with fully rounded ends of the same thickness.
    case capsule
    /// A tapered bar: a thin rounded end at the minimum side (radius ≈ 1 % of the track's
    /// length) widening to a full round end at the maximum side, like a brush-size slider.
    case wedge
}

/// Everything the user may choose about the slider's appearance.
public struct SliderStyle: Sendable, Equatable {
    /// The outline of the track (and of the value fill inside it).
    public var trackShape: TrackShape
    /// The part of the track above the value.
    public var trackColor: Color
    /// The part of the track from the minimum up to the value.
    public var fillColor: Color
    /// The round thumb.
    public var thumbColor: Color
    /// Everything else in the surface; fully transparent is allowed (edge overlays).
    public var backgroundColor: Color
    /// Whether the thumb casts a soft drop shadow.
    public var shadow: Bool

    /// Creates a style; the defaults are a dark panel, a graphite track, a blue fill and a white
    /// thumb with a soft shadow.
    public init(
        trackShape: TrackShape = .capsule,
        trackColor: Color = Color(red: 0x48, green: 0x48, blue: 0x4A),
        fillColor: Color = Color(red: 0x0A, green: 0x84, blue: 0xFF),
        thumbColor: Color = Color(red: 0xFF, green: 0xFF, blue: 0xFF),
        backgroundColor: Color = Color(red: 0x1C, green: 0x1C, blue: 0x1E),
        shadow: Bool = true
    ) {
        self.trackShape = trackShape
        self.trackColor = trackColor
        self.fillColor = fillColor
        self.thumbColor = thumbColor
        self.backgroundColor = backgroundColor
        self.shadow = shadow
    }
}

/// The thumb's drop shadow, in logical pixels: light comes from straight above, so the shadow
/// falls a little below the thumb and fades out as a Gaussian blur of the thumb's disc.
struct ShadowLook {
    /// How far below the thumb the shadow's disc sits.
    static let offsetY = 1.5
    /// The Gaussian's standard deviation.
    static let sigma = 2.0
    /// Opacity of the shadow at its darkest.
    static let opacity = 0.40
    /// Beyond 3 σ the blurred edge is below half a step of 8-bit alpha, so the mask stops there.
    static let reach = 3 * sigma

    /// How far outside the thumb's disc anything of the shadow is drawn, on any side.
    static var outset: Double { reach + offsetY }
}
