/// Which way the slider runs. Horizontal sliders have their minimum at the left, vertical ones at
/// the bottom.
public enum Orientation: String, Sendable, CaseIterable {
    case horizontal, vertical
}

/// The screen edge an edge-mode slider rests half hidden beyond.
public enum ScreenEdge: String, Sendable, CaseIterable {
    case left, right, top, bottom

    /// The orientation a slider lying along this edge has.
    public var orientation: Orientation {
        switch self {
        case .left, .right: .vertical
        case .top, .bottom: .horizontal
        }
    }
}

/// How the presented value follows a new target.
public enum GlideMode: String, Sendable, CaseIterable {
    /// A timed glide along a ``TimingCurve`` that restarts from the presented value on every new
    /// target (the seed behaviour: Core Animation's presentation layer).
    case curve
    /// A critically damped spring that keeps its velocity across new targets, clamped so that the
    /// value never overshoots and never moves away from its target.
    case spring
}

/// Everything about the slider's behaviour that a user can choose. The defaults are the constants
/// of the behaviours wlslider is modelled on (see the README): a thumb that doubles over 0.3 s, a
/// 0.25 s ease-in glide after a jump and a 0.03 s one while dragging, OBSlider's scrubbing speeds.
public struct SliderConfiguration: Sendable, Equatable {
    /// The value at the minimum end.
    public var minimum: Double = 0
    /// The value at the maximum end.
    public var maximum: Double = 100
    /// When set, every target is a whole number of steps from the minimum.
    public var step: Double? = nil
    /// Which way the slider runs.
    public var orientation: Orientation = .horizontal
    /// The slider's thickness across its axis, in logical pixels. A surface larger than this across
    /// the axis centres the slider in it.
    public var thickness: Double = 48
    /// Diameter of the resting thumb; `nil` derives it from the thickness so that the grown thumb
    /// leaves room for its shadow.
    public var thumbDiameter: Double? = nil
    /// Thickness of the drawn track; `nil` derives it from the thickness.
    public var trackThickness: Double? = nil
    /// How much the thumb grows while held.
    public var thumbScale: Double = 2
    /// How long the thumb takes to grow and to shrink back, in seconds.
    public var thumbDuration: Double = 0.3
    /// Glide duration after a jump (a press away from the thumb, a key, a wheel detent, stdin).
    public var jumpDuration: Double = 0.25
    /// Glide duration for each movement of a drag.
    public var dragDuration: Double = 0.03
    /// The timing curve of timed glides.
    public var curve: TimingCurve = .easeIn
    /// Timed glides or a velocity-keeping spring.
    public var glide: GlideMode = .curve
    /// Scrubbing speeds, one per entry of ``scrubOffsets``.
    public var scrubSpeeds: [Double] = [1, 0.5, 0.25, 0.1]
    /// Distances from the track (logical pixels, ascending, starting at 0) beyond which the next
    /// speed applies.
    public var scrubOffsets: [Double] = [0, 50, 100, 150]
    /// Edge mode: rest half hidden beyond this screen edge and slide in while touched.
    public var edge: ScreenEdge? = nil
    /// How long the edge slide takes, in seconds.
    public var edgeDuration: Double = 0.3
    /// How long the slider stays revealed after a gesture ends before it slides back, in seconds.
    public var edgeHideDelay: Double = 0
    /// Arrow keys and wheel detents move by this much; `nil` means the step, or 1 % of the range.
    public var keyStep: Double? = nil
    /// Page Up/Down move by this fraction of the range.
    public var pageFraction: Double = 0.1

    public init() {}

    /// The extent of the range.
    public var span: Double { maximum - minimum }

    /// The resting thumb diameter in effect.
    public var resolvedThumbDiameter: Double {
        thumbDiameter ?? (thickness * 5 / 6 / max(thumbScale, 1)).rounded()
    }

    /// The drawn track thickness in effect.
    public var resolvedTrackThickness: Double {
        trackThickness ?? max(2, (thickness / 8).rounded())
    }

    /// The amount one arrow key or wheel detent moves.
    public var resolvedKeyStep: Double { keyStep ?? step ?? span / 100 }

    /// Checks every field; the error names the field and the offending numbers.
    public func validate() throws(SliderError) {
        try Self.requireFinite(minimum, "minimum")
        try Self.requireFinite(maximum, "maximum")
        guard maximum > minimum else { throw .invalidRange(minimum: minimum, maximum: maximum) }
        if let step {
            try Self.requireFinite(step, "step")
            guard step > 0, step <= span else { throw .invalid("step", step, "must be > 0 and at most the range \(span.formattedCompactly)") }
        }
        try Self.requirePositive(thickness, "thickness")
        if let thumbDiameter { try Self.requirePositive(thumbDiameter, "thumb diameter") }
        if let trackThickness { try Self.requirePositive(trackThickness, "track thickness") }
        try Self.requireFinite(thumbScale, "thumb scale")
        guard thumbScale >= 1, thumbScale <= 10 else { throw .invalid("thumb scale", thumbScale, "must be between 1 and 10") }
        for (name, d) in [("thumb duration", thumbDuration), ("jump duration", jumpDuration),
                          ("drag duration", dragDuration), ("edge duration", edgeDuration),
                          ("edge hide delay", edgeHideDelay)] {
            try Self.requireFinite(d, name)
            guard d >= 0, d <= 60 else { throw .invalid(name, d, "must be between 0 and 60 seconds") }
        }
        try validateScrubbing()
        if let keyStep { try Self.requirePositive(keyStep, "key step") }
        try Self.requireFinite(pageFraction, "page fraction")
        guard pageFraction > 0, pageFraction <= 1 else { throw .invalid("page fraction", pageFraction, "must be in (0, 1]") }
        if let edge, edge.orientation != orientation {
            throw .edgeOrientation(edge: edge, orientation: orientation)
        }
    }

    private func validateScrubbing() throws(SliderError) {
        guard !scrubSpeeds.isEmpty, scrubSpeeds.count == scrubOffsets.count else {
            throw .scrubbing("needs as many speeds (\(scrubSpeeds.count)) as offsets (\(scrubOffsets.count)), at least one")
        }
        for speed in scrubSpeeds where !(speed.isFinite && speed > 0 && speed <= 10) {
            throw .scrubbing("speed \(speed) must be > 0 and at most 10")
        }
        guard scrubOffsets[0] == 0 else { throw .scrubbing("the first offset must be 0, not \(scrubOffsets[0])") }
        for i in scrubOffsets.indices.dropFirst() where !(scrubOffsets[i].isFinite && scrubOffsets[i] > scrubOffsets[i - 1]) {
            throw .scrubbing("offsets must be finite and ascending (\(scrubOffsets[i - 1]) then \(scrubOffsets[i]))")
        }
    }

    private static func requireFinite(_ v: Double, _ name: String) throws(SliderError) {
        guard v.isFinite else { throw .notFinite(name) }
    }

    private static func requirePositive(_ v: Double, _ name: String) throws(SliderError) {
        try requireFinite(v, name)
        guard v > 0 else { throw .invalid(name, v, "must be > 0") }
    }
}

/// Why the engine refused a configuration or a value. Each description is one line.
public enum SliderError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFinite(String)
    case invalidRange(minimum: Double, maximum: Double)
    case outOfRange(String, Double, minimum: Double, maximum: Double)
    case invalid(String, Double, String)
    case scrubbing(String)
    case edgeOrientation(edge: ScreenEdge, orientation: Orientation)

    public var description: String {
        switch self {
        case .notFinite(let name):
            "\(name) must be a finite number"
        case .invalidRange(let lo, let hi):
            "the maximum (\(hi.formattedCompactly)) must be greater than the minimum (\(lo.formattedCompactly))"
        case .outOfRange(let name, let v, let lo, let hi):
            "\(name) \(v.formattedCompactly) is outside the range \(lo.formattedCompactly)…\(hi.formattedCompactly)"
        case .invalid(let name, let v, let why):
            "\(name) \(v.formattedCompactly) \(why)"
        case .scrubbing(let why):
            "scrubbing: \(why)"
        case .edgeOrientation(let edge, let orientation):
            "a slider at the \(edge.rawValue) edge must be \(edge.orientation.rawValue), not \(orientation.rawValue)"
        }
    }
}
