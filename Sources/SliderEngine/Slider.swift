/// What the slider looks like at one moment: everything a renderer needs, in logical pixels.
public struct SliderAppearance: Sendable, Equatable {
    /// The presented value.
    public var value: Double
    /// The presented value as a fraction of the range (0 = minimum).
    public var fraction: Double
    /// The thumb's current growth (1 at rest).
    public var thumbScale: Double
    /// How far an edge-mode slider is pushed beyond its edge (0 = fully shown).
    public var shift: Double
    public var thumbCenter: SliderPoint
    /// The thumb's current radius (resting radius × scale).
    public var thumbRadius: Double
    /// Bounding box of the track.
    public var track: SliderRect
    /// Axis coordinate where the value fill ends (the thumb centre).
    public var fillEnd: Double
    /// The part of the slider on the surface: the region that accepts input.
    public var visibleBand: SliderRect
}

/// The outcome of advancing the slider to a frame's time.
public struct SliderFrame: Sendable {
    public var time: Double
    public var appearance: SliderAppearance
    /// Values to emit: one when the presented value changed since the last frame, one per gesture
    /// phase change; never two equal in a row.
    public var samples: SmallList<ValueSample>
    /// Logical rectangles that look different from the previous frame (empty: nothing to draw).
    public var damage: SmallList<SliderRect>
    /// True while anything still moves: ask for another frame only then.
    public var isAnimating: Bool
    /// True when the input region (the visible band) changed.
    public var inputRegionChanged: Bool

    /// True when something must be drawn.
    public var needsRedraw: Bool { !damage.isEmpty }
}

/// The slider engine: decides what the slider does with input and time.
///
/// Pure and deterministic: events and the current time go in; the state to draw and the values to
/// emit come out. Times are seconds on any monotonic clock the caller likes; a time earlier than
/// one already seen is treated as that time.
public struct Slider: Sendable {
    /// One press being tracked.
    private struct Gesture: Sendable {
        var contact: Contact
        var start: SliderPoint
        var last: SliderPoint
        /// The target before the gesture: where a cancel returns.
        var valueBefore: Double
        /// Where the drag has taken the value (unsnapped).
        var tracked: Double
        /// The value under the finger.
        var finger: Double
        /// The finger's distance from the track at the last event.
        var distance: Double
    }

    public private(set) var configuration: SliderConfiguration
    public private(set) var layout: SliderLayout
    private var glide: Glide
    private var thumbScale: Tween
    private var edgeShift: Tween
    private var gesture: Gesture? {
        didSet { trackingContact = gesture?.contact }
    }
    private var scrubbing: Scrubbing
    private var pendingExternalTarget: Double?
    private var wheelRemainder = 0
    private var scrollValue: Double?
    /// The latest time the slider was given (by input, a frame or a command): its clock, which
    /// never goes back. (Stored, as `trackingContact` is, so that reading it through the class
    /// that holds the slider copies nothing: the app does so after every change.)
    public private(set) var time: Double
    /// The contact driving the gesture in progress, if any.
    public private(set) var trackingContact: Contact?
    private var drawn: SliderAppearance?
    private var needsFullRedraw = true
    private var lastSample: ValueSample?
    private var pendingPhases = SmallList<GesturePhase>()

    /// Creates a slider.
    ///
    /// - Parameters:
    ///   - value: the initial value; the minimum when `nil`. It must lie in the range.
    ///   - size: the surface size in logical pixels; ``SliderConfiguration/preferredSize`` when `nil`.
    ///   - time: the caller's clock at creation.
    public init(configuration: SliderConfiguration, value: Double? = nil, size: SliderSize? = nil,
                at time: Double = 0) throws(SliderError) {
        try configuration.validate()
        let v = value ?? configuration.minimum
        guard v.isFinite else { throw .notFinite(.value) }
        guard v >= configuration.minimum, v <= configuration.maximum else {
            throw .outOfRange(.value, v, minimum: configuration.minimum, maximum: configuration.maximum)
        }
        self.configuration = configuration
        layout = SliderLayout(configuration: configuration, size: size ?? configuration.preferredSize)
        scrubbing = Scrubbing(speeds: configuration.scrubSpeeds, offsets: configuration.scrubOffsets)
        self.time = time
        glide = Glide(value: v)
        thumbScale = Tween(1, curve: .easeInOut)
        edgeShift = Tween(layout.hiddenShift, curve: .easeInOut)
        glide.jump(to: snapped(v), at: time)
    }

    // MARK: Reading the state

    /// Where the value is headed: the model value, as opposed to the presented one.
    public var target: Double { glide.target }

    /// The presented value at time `t`: a pure function of the state, to be sampled at any rate.
    /// Always in the range: a glide between two values in it stays in it, and clamping takes off
    /// the last bit of rounding (target + (from − target) need not be exactly `from`).
    public func value(at t: Double) -> Double { glide.value(at: t).clamped(to: range) }

    /// Fills `samples` with the presented value at `startTime + i / sampleRate` for each sample i:
    /// the audio-rate view of the value stream. Allocates nothing.
    public func fill(_ samples: inout MutableSpan<Float>, from startTime: Double, sampleRate: Double) {
        glide.fill(&samples, from: startTime, sampleRate: sampleRate)
    }

    /// The slider's range, as every sink maps its values from it.
    public var range: ClosedRange<Double> { configuration.minimum...configuration.maximum }


    /// The presented value from now on, as a plain value another thread can evaluate without
    /// touching the slider (see ``PresentedValue``).
    public var presentation: PresentedValue { PresentedValue(glide: glide, range: range, since: time) }

    /// True while the value, the thumb or the edge slide still moves at `t`.
    public func isAnimating(at t: Double) -> Bool {
        glide.isMoving(at: t) || thumbScale.isMoving(at: t) || edgeShift.isMoving(at: t)
    }

    /// What the slider looks like at `t`.
    ///
    /// Inlined always: called from a mutating method (`advance`, once a frame), a method on the
    /// whole slider is handed a copy of it, some 800 bytes.
    @inline(__always)
    public func appearance(at t: Double) -> SliderAppearance {
        let v = value(at: t), f = fraction(of: v)
        let scale = thumbScale.value(at: t), shift = edgeShift.value(at: t)
        return SliderAppearance(
            value: v, fraction: f, thumbScale: scale, shift: shift,
            thumbCenter: layout.thumbCenter(fraction: f, shift: shift),
            thumbRadius: layout.thumbRadius * scale,
            track: layout.track(shift: shift),
            fillEnd: layout.position(forFraction: f),
            visibleBand: layout.visibleBand(shift: shift))
    }

    // MARK: Input

    /// Feeds one input event at time `t`. Returns true when the slider used it (a press outside the
    /// slider, a second finger, or a key during a drag is not used).
    @discardableResult
    public mutating func handle(_ input: SliderInput, at t: Double) -> Bool {
        let t = tick(t)
        switch input {
        case let .press(contact, p): return press(contact, at: p, time: t)
        case let .move(contact, p): return move(contact, to: p, time: t)
        case let .release(contact): return release(contact, time: t)
        case .cancel: return cancel(time: t)
        case let .key(key, isRepeat): return self.key(key, isRepeat: isRepeat, time: t)
        case let .wheel(value120, axis): return wheel(value120: value120, axis: axis, time: t)
        case let .scroll(pixels, axis): return scroll(pixels: pixels, axis: axis, time: t)
        }
    }

    private mutating func press(_ contact: Contact, at p: SliderPoint, time t: Double) -> Bool {
        guard gesture == nil, p.isFinite else { return false }
        let shift = edgeShift.value(at: t)
        guard layout.visibleBand(shift: shift).contains(p) else { return false }
        let presented = value(at: t)
        var g = Gesture(contact: contact, start: p, last: p, valueBefore: glide.target,
                        tracked: presented, finger: presented, distance: 0)
        let thumb = layout.thumbCenter(fraction: fraction(of: presented), shift: shift)
        let radius = layout.thumbRadius * thumbScale.value(at: t)
        // Fingers are blunt: touch grabs the thumb anywhere within half the slider's thickness.
        let reach = contact == .pointer ? radius + 1 : max(radius + 4, layout.thickness / 2)
        if abs(layout.along(p) - layout.along(thumb)) <= reach {
            glide.jump(to: presented, at: t)  // catch the thumb where it is: no jump
        } else {
            let v = configuration.minimum + layout.fraction(forPosition: layout.along(p)) * configuration.span
            g.tracked = v
            g.finger = v
            glide(to: snapped(v), at: t, duration: configuration.jumpDuration)
        }
        gesture = g
        scrollValue = nil
        thumbScale.retarget(to: configuration.thumbScale, at: t, duration: configuration.thumbDuration)
        edgeShift.retarget(to: 0, at: t, duration: configuration.edgeDuration)
        pendingPhases.append(.began)
        return true
    }

    private mutating func move(_ contact: Contact, to p: SliderPoint, time t: Double) -> Bool {
        guard var g = gesture, g.contact == contact, p.isFinite else { return false }
        let delta = layout.fraction(forMovement: layout.along(p) - layout.along(g.last)) * configuration.span
        let distance = abs(layout.across(p) - layout.across(g.start))
        (g.tracked, g.finger) = scrubbing.move(
            tracked: g.tracked, finger: g.finger, delta: delta, distance: distance,
            previousDistance: g.distance, range: range)
        g.distance = distance
        g.last = p
        gesture = g
        glide(to: snapped(g.tracked), at: t, duration: configuration.dragDuration, keepPace: configuration.dragDuration)
        return true
    }

    private mutating func release(_ contact: Contact, time t: Double) -> Bool {
        guard let g = gesture, g.contact == contact else { return false }
        gesture = nil
        glide(to: snapped(glide.target), at: t, duration: configuration.dragDuration, keepPace: configuration.dragDuration)
        endGesture(at: t, phase: .ended)
        return true
    }

    private mutating func cancel(time t: Double) -> Bool {
        guard let g = gesture else { return false }
        gesture = nil
        glide(to: g.valueBefore, at: t, duration: configuration.jumpDuration)
        endGesture(at: t, phase: .cancelled)
        return true
    }

    private mutating func endGesture(at t: Double, phase: GesturePhase) {
        thumbScale.retarget(to: 1, at: t, duration: configuration.thumbDuration)
        edgeShift.retarget(to: layout.hiddenShift, at: t, duration: configuration.edgeDuration,
                           delay: configuration.edgeHideDelay)
        pendingPhases.append(phase)
        if let v = pendingExternalTarget {
            // An outside command that arrived during the gesture applies now that it is over.
            pendingExternalTarget = nil
            glide(to: v, at: t, duration: configuration.jumpDuration)
        }
    }

    private mutating func key(_ key: SliderKey, isRepeat: Bool, time t: Double) -> Bool {
        guard gesture == nil else { return false }
        let c = configuration, base = glide.target
        let page = c.span * c.pageFraction
        let goal: Double = switch key {
        case .increment: stepped(from: base, up: true)
        case .decrement: stepped(from: base, up: false)
        case .pageUp: base + page
        case .pageDown: base - page
        case .home: c.minimum
        case .end: c.maximum
        }
        scrollValue = nil
        // Repeats come faster than a jump glide lasts: follow them closely instead of lagging.
        glide(to: snapped(goal), at: t, duration: isRepeat ? c.dragDuration : c.jumpDuration, keepPace: configuration.dragDuration)
        return true
    }

    private mutating func wheel(value120: Int, axis: ScrollAxis, time t: Double) -> Bool {
        guard gesture == nil else { return false }
        // Scrolling down (positive vertical) lowers the value; scrolling right raises it. Wayland
        // sends 32-bit amounts; bounding them keeps the sum from overflowing whatever comes in.
        let amount = min(max(value120, -Self.wheelLimit), Self.wheelLimit)
        wheelRemainder += axis == .vertical ? -amount : amount
        let detents = wheelRemainder / 120
        wheelRemainder -= detents * 120
        guard detents != 0 else { return true }
        scrollValue = nil
        let goal = glide.target + Double(detents) * configuration.resolvedKeyStep
        glide(to: snapped(goal), at: t, duration: configuration.jumpDuration, keepPace: configuration.dragDuration)
        return true
    }

    private mutating func scroll(pixels: Double, axis: ScrollAxis, time t: Double) -> Bool {
        guard gesture == nil, pixels.isFinite else { return false }
        let movement = axis == .vertical ? -pixels : pixels
        let goal = ((scrollValue ?? glide.target) + movement / layout.inputTravel * configuration.span).clamped(to: range)
        scrollValue = goal
        glide(to: snapped(goal), at: t, duration: configuration.dragDuration, keepPace: configuration.dragDuration)
        return true
    }

    // MARK: Commands from outside

    /// Sets the target from outside (stdin, OSC): the value glides there. Out-of-range values are
    /// clamped; a non-finite one is refused. During a gesture the gesture wins: the target applies
    /// when it ends.
    public mutating func setTarget(_ value: Double, at t: Double) throws(SliderError) {
        guard value.isFinite else { throw .notFinite(.value) }
        let t = tick(t)
        let v = snapped(value)
        scrollValue = nil
        if gesture != nil {
            pendingExternalTarget = v
        } else {
            glide(to: v, at: t, duration: configuration.jumpDuration, keepPace: configuration.dragDuration)
        }
    }

    /// Moves the target by `delta` (relative commands such as `+5`). A sum beyond the largest
    /// Double (`+1e308` twice near a maximum of 1e308) is clamped like any other target.
    public mutating func moveTarget(by delta: Double, at t: Double) throws(SliderError) {
        guard delta.isFinite else { throw .notFinite(.change) }
        let sum = (pendingExternalTarget ?? glide.target) + delta
        try setTarget(sum.isFinite ? sum : (sum > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude), at: t)
    }

    /// Changes the range live; the target and presented value are clamped into it.
    public mutating func setRange(minimum: Double, maximum: Double, at t: Double) throws(SliderError) {
        var c = configuration
        c.minimum = minimum
        c.maximum = maximum
        if let step = c.step, step > c.span { c.step = nil }
        try c.validate()
        let t = tick(t)
        let presented = glide.value(at: t), goal = glide.target
        configuration = c
        glide.jump(to: presented.clamped(to: range), at: t)
        glide(to: snapped(goal), at: t, duration: configuration.jumpDuration)
        pendingExternalTarget = pendingExternalTarget.map { snapped($0) }
        needsFullRedraw = true
    }

    /// Sets or clears the step; the target moves onto the new grid.
    public mutating func setStep(_ step: Double?, at t: Double) throws(SliderError) {
        var c = configuration
        c.step = step
        try c.validate()
        let t = tick(t)
        configuration = c
        glide(to: snapped(glide.target), at: t, duration: configuration.jumpDuration)
    }

    /// Lays the slider out on a surface of a new size.
    public mutating func resize(to size: SliderSize) {
        guard size != layout.size else { return }
        layout = SliderLayout(configuration: configuration, size: size)
        needsFullRedraw = true
    }

    // MARK: Frames

    /// Advances to a frame's time: what to draw, what changed, what to emit.
    public mutating func advance(to time: Double) -> SliderFrame {
        let t = tick(time)
        let now = appearance(at: t)
        let damage = changedRegions(from: drawn, to: now)
        let regionChanged = drawn?.visibleBand != now.visibleBand
        drawn = now
        needsFullRedraw = false
        var frame = SliderFrame(time: t, appearance: now, samples: SmallList(), damage: damage,
                                isAnimating: isAnimating(at: t), inputRegionChanged: regionChanged)
        collectSamples(at: t, value: now.value, into: &frame.samples)
        return frame
    }

    /// The values to emit at `time` without drawing a frame: the window is hidden, or its frame
    /// callbacks are late, and the value stream must not depend on being seen. The next `advance`
    /// still reports everything that changed since the last frame drawn.
    public mutating func samplesWithoutFrame(at time: Double) -> SmallList<ValueSample> {
        let t = tick(time)
        var samples = SmallList<ValueSample>()
        collectSamples(at: t, value: glide.value(at: t), into: &samples)
        return samples
    }

    /// Ends the glide at `time`: the value stands on its target from then on. For the way out, so
    /// every sink ends on the target however far the glide had come.
    public mutating func settle(at time: Double) {
        let t = tick(time)
        glide.jump(to: glide.target, at: t)
    }

    /// Appends to `out` (empty) the samples due at `t`. (Filled in place: returning a list built
    /// here copied it, element by element through its generic value witness, at every frame.)
    private mutating func collectSamples(at t: Double, value: Double, into out: inout SmallList<ValueSample>) {
        if pendingPhases.isEmpty {
            if lastSample?.value != value {
                out.append(ValueSample(time: t, value: value, phase: gesture == nil ? .idle : .moved))
            }
        } else {
            for phase in pendingPhases { out.append(ValueSample(time: t, value: value, phase: phase)) }
            pendingPhases.removeAll()
        }
        let previous = lastSample
        out.retain { $0.value != previous?.value || $0.phase != previous?.phase }
        if let last = out.last { lastSample = last }
    }

    /// Inlined always, as `appearance(at:)` is.
    @inline(__always)
    private func changedRegions(from old: SliderAppearance?, to new: SliderAppearance) -> SmallList<SliderRect> {
        let surface = SliderRect(x: 0, y: 0, width: layout.size.width, height: layout.size.height)
        guard let old, !needsFullRedraw, old.shift == new.shift, old.track == new.track else { return [surface] }
        var rects = SmallList<SliderRect>()
        func add(_ rect: SliderRect) {
            let inside = rect.intersection(surface)
            if !inside.isEmpty { rects.append(inside) }
        }
        if old.thumbCenter != new.thumbCenter || old.thumbRadius != new.thumbRadius {
            add(layout.thumbBounds(center: old.thumbCenter, radius: old.thumbRadius)
                .union(layout.thumbBounds(center: new.thumbCenter, radius: new.thumbRadius)))
        }
        if old.fillEnd != new.fillEnd {
            add(layout.trackSpan(from: old.fillEnd, to: new.fillEnd, shift: new.shift))
        }
        return rects
    }

    // MARK: Helpers


    /// The most steps from the minimum a grid may count and still be snapped to: beyond 2^53,
    /// whole numbers of steps are no longer exact Doubles.
    private static let largestStepCount = 9_007_199_254_740_992.0
    /// Bounds one wheel event's amount (Wayland sends at most 2^31 − 1).
    private static let wheelLimit = 1 << 40

    private func fraction(of v: Double) -> Double {
        ((v - configuration.minimum) / configuration.span).clamped(to: 0...1)
    }

    /// Clamps to the range and, with a step, rounds to the nearest step from the minimum (the
    /// maximum itself is always reachable, even off the grid).
    /// A grid too fine to count in Doubles (more than 2^53 steps to the value, e.g. a step of
    /// 1e-300) is no grid: the value is only clamped.
    private func snapped(_ v: Double) -> Double {
        let c = configuration
        let clamped = v.clamped(to: range)
        guard let step = c.step else { return clamped }
        var k = ((clamped - c.minimum) / step).rounded()
        guard k <= Self.largestStepCount else { return clamped }
        if c.minimum + k * step > c.maximum { k = ((c.maximum - c.minimum) / step).rounded(.down) }
        let onGrid = c.minimum + k * step
        return abs(c.maximum - clamped) < abs(onGrid - clamped) ? c.maximum : onGrid
    }

    /// One arrow key from `base`: with a step (and no separate key step), the next grid point in
    /// that direction, so a value off the grid (the maximum) steps onto it instead of skipping one.
    private func stepped(from base: Double, up: Bool) -> Double {
        let c = configuration
        guard let step = c.step, c.keyStep == nil else { return base + (up ? 1 : -1) * c.resolvedKeyStep }
        let k = (base - c.minimum) / step
        guard k <= Self.largestStepCount else { return base + (up ? step : -step) }
        let next = up ? (k + 1e-9).rounded(.down) + 1 : (k - 1e-9).rounded(.up) - 1
        return c.minimum + next * step
    }

    /// Heads the presented value for `v`. With `keepPace`, a glide under way with at least that
    /// much time left is redirected rather than restarted (see ``Glide``).
    private mutating func glide(to v: Double, at t: Double, duration: Double, keepPace: Double? = nil) {
        glide.retarget(to: v, at: t, duration: duration, mode: configuration.glide, curve: configuration.curve,
                       keepPace: keepPace, tolerance: configuration.span * 1e-7)
    }

    private mutating func tick(_ t: Double) -> Double {
        if t.isFinite, t > time { time = t }
        return time
    }
}

extension SliderConfiguration {
    /// The size a slider asks for when nothing else decides: 320 long, `thickness` across.
    public var preferredSize: SliderSize {
        orientation == .horizontal
            ? SliderSize(width: 320, height: thickness)
            : SliderSize(width: thickness, height: 320)
    }
}
