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
    ///
    /// Beyond each field's own bounds, the range must be representable: `maximum − minimum` must
    /// be finite, or every fraction of the range (and every value derived from one) would be
    /// infinite or NaN. Large steps, key steps and thicknesses need no such limit: targets are
    /// clamped into the range and the layout clamps the shapes to the surface.
    public func validate() throws(SliderError) {
        try Self.requireFinite(minimum, .minimum)
        try Self.requireFinite(maximum, .maximum)
        guard maximum > minimum else { throw .invalidRange(minimum: minimum, maximum: maximum) }
        guard span.isFinite else { throw .rangeTooWide(minimum: minimum, maximum: maximum) }
        if let step {
            try Self.requireFinite(step, .step)
            guard step > 0, step <= span else { throw .invalid(.step, step, "must be > 0 and at most the range \(span.formattedCompactly)") }
        }
        try Self.requirePositive(thickness, .thickness)
        if let thumbDiameter { try Self.requirePositive(thumbDiameter, .thumbDiameter) }
        if let trackThickness { try Self.requirePositive(trackThickness, .trackThickness) }
        try Self.requireFinite(thumbScale, .thumbScale)
        guard thumbScale >= 1, thumbScale <= 10 else { throw .invalid(.thumbScale, thumbScale, "must be between 1 and 10") }
        for (field, d) in [(SliderError.Field.thumbDuration, thumbDuration), (.jumpDuration, jumpDuration),
                           (.dragDuration, dragDuration), (.edgeDuration, edgeDuration),
                           (.edgeHideDelay, edgeHideDelay)] {
            try Self.requireFinite(d, field)
            guard d >= 0, d <= 60 else { throw .invalid(field, d, "must be between 0 and 60 seconds") }
        }
        try validateScrubbing()
        if let keyStep { try Self.requirePositive(keyStep, .keyStep) }
        try Self.requireFinite(pageFraction, .pageFraction)
        guard pageFraction > 0, pageFraction <= 1 else { throw .invalid(.pageFraction, pageFraction, "must be in (0, 1]") }
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

    private static func requireFinite(_ v: Double, _ field: SliderError.Field) throws(SliderError) {
        guard v.isFinite else { throw .notFinite(field) }
    }

    private static func requirePositive(_ v: Double, _ field: SliderError.Field) throws(SliderError) {
        try requireFinite(v, field)
        guard v > 0 else { throw .invalid(field, v, "must be > 0") }
    }
}

/// Why the engine refused a configuration or a value. Each description is one line.
public enum SliderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an error is about: a field of ``SliderConfiguration``, or a value given to the slider.
    /// Callers that present errors in their own terms (the command line names its options) switch
    /// over it.
    public enum Field: String, Sendable, CaseIterable {
        case minimum, maximum
        /// The minimum and maximum together.
        case range
        case step, thickness, thumbDiameter, trackThickness, thumbScale
        case thumbDuration, jumpDuration, dragDuration, edgeDuration, edgeHideDelay
        /// The scrubbing speeds and offsets together.
        case scrubbing
        case keyStep, pageFraction
        /// The edge together with the orientation.
        case edge
        /// A value: the initial one, or a target from outside.
        case value
        /// A relative change of the target from outside.
        case change

        /// The field's name in messages, e.g. "thumb duration".
        public var name: String {
            switch self {
            case .minimum: "minimum"
            case .maximum: "maximum"
            case .range: "range"
            case .step: "step"
            case .thickness: "thickness"
            case .thumbDiameter: "thumb diameter"
            case .trackThickness: "track thickness"
            case .thumbScale: "thumb scale"
            case .thumbDuration: "thumb duration"
            case .jumpDuration: "jump duration"
            case .dragDuration: "drag duration"
            case .edgeDuration: "edge duration"
            case .edgeHideDelay: "edge hide delay"
            case .scrubbing: "scrubbing"
            case .keyStep: "key step"
            case .pageFraction: "page fraction"
            case .edge: "edge"
            case .value: "value"
            case .change: "change"
            }
        }
    }

    /// The field must be a finite number.
    case notFinite(Field)
    /// The maximum is not greater than the minimum.
    case invalidRange(minimum: Double, maximum: Double)
    /// The range is wider than a Double holds: maximum − minimum overflows to infinity.
    case rangeTooWide(minimum: Double, maximum: Double)
    /// A value outside the range.
    case outOfRange(Field, Double, minimum: Double, maximum: Double)
    /// The field's number breaks the rule given as the last part.
    case invalid(Field, Double, String)
    /// The scrubbing speeds and offsets do not fit together.
    case scrubbing(String)
    /// An edge-mode slider must lie along its edge.
    case edgeOrientation(edge: ScreenEdge, orientation: Orientation)

    /// What the error is about.
    public var field: Field {
        switch self {
        case .notFinite(let field), .outOfRange(let field, _, _, _), .invalid(let field, _, _): field
        case .invalidRange, .rangeTooWide: .range
        case .scrubbing: .scrubbing
        case .edgeOrientation: .edge
        }
    }

    public var description: String {
        switch self {
        case .notFinite(let field):
            "\(field.name) must be a finite number"
        case .invalidRange(let lo, let hi):
            "the maximum (\(hi.formattedCompactly)) must be greater than the minimum (\(lo.formattedCompactly))"
        case .rangeTooWide(let lo, let hi):
            "the range \(lo.formattedCompactly)…\(hi.formattedCompactly) is too wide: maximum − minimum must be a finite number"
        case .outOfRange(let field, let v, let lo, let hi):
            "\(field.name) \(v.formattedCompactly) is outside the range \(lo.formattedCompactly)…\(hi.formattedCompactly)"
        case .invalid(let field, let v, let why):
            "\(field.name) \(v.formattedCompactly) \(why)"
        case .scrubbing(let why):
            "scrubbing: \(why)"
        case .edgeOrientation(let edge, let orientation):
            "a slider at the \(edge.rawValue) edge must be \(edge.orientation.rawValue), not \(orientation.rawValue)"
        }
    }
}
