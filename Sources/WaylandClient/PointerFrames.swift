// Pure grouping of wl_pointer events into frames, and the choice among the three ways a compositor
// reports scrolling (value120, discrete steps, continuous pixels).

/// Everything one frame said about one scroll axis.
struct AxisFrame: Equatable {
    var pixels: Double?
    var discrete: Int32?
    var value120: Int32?
    var stopped = false
    var time: UInt32 = 0

    /// The events for this axis: prefer `axis_value120` (seat 8), else `axis_discrete` × 120 (seat
    /// 5-7), else the continuous distance in pixels; then the stop, if any.
    func events(axis: PointerAxis, source: AxisSource) -> [PointerEvent] {
        var events: [PointerEvent] = []
        if let value120 {
            events.append(.wheel(axis: axis, value120: value120, source: source, time: time))
        } else if let discrete {
            events.append(.wheel(axis: axis, value120: discrete &* 120, source: source, time: time))
        } else if let pixels, pixels != 0 {
            events.append(.scroll(axis: axis, pixels: pixels, source: source, time: time))
        }
        if stopped { events.append(.scrollStop(axis: axis, time: time)) }
        return events
    }
}

/// Groups pointer events by `wl_pointer.frame`. On a seat older than 5 there are no frames: each call
/// returns its event as a batch of its own. Every method returns a batch to deliver, or nil.
struct PointerFrameAssembler {
    /// Whether the compositor sends `wl_pointer.frame` (seat version ≥ 5).
    let usesFrames: Bool
    private(set) var pending: [PointerEvent] = []
    private var source: AxisSource?
    private var vertical = AxisFrame()
    private var horizontal = AxisFrame()

    init(usesFrames: Bool) {
        self.usesFrames = usesFrames
    }

    /// enter, leave, motion, button.
    mutating func add(_ event: PointerEvent) -> [PointerEvent]? {
        pending.append(event)
        return usesFrames ? nil : frame()
    }

    /// `wl_pointer.axis`: continuous distance.
    mutating func axis(_ axis: PointerAxis, pixels: Double, time: UInt32) -> [PointerEvent]? {
        update(axis) { $0.pixels = ($0.pixels ?? 0) + pixels; $0.time = time }
        return usesFrames ? nil : frame()
    }

    /// `wl_pointer.axis_discrete` (seat 5-7), sent before the `axis` event of the same frame.
    mutating func axisDiscrete(_ axis: PointerAxis, steps: Int32) {
        update(axis) { $0.discrete = ($0.discrete ?? 0) &+ steps }
    }

    /// `wl_pointer.axis_value120` (seat 8), replaces `axis_discrete`.
    mutating func axisValue120(_ axis: PointerAxis, value: Int32) {
        update(axis) { $0.value120 = ($0.value120 ?? 0) &+ value }
    }

    /// `wl_pointer.axis_source`: applies to the axis events of this frame.
    mutating func axisSource(_ source: AxisSource) {
        self.source = source
    }

    /// `wl_pointer.axis_stop`.
    mutating func axisStop(_ axis: PointerAxis, time: UInt32) {
        update(axis) { $0.stopped = true; $0.time = time }
    }

    /// `wl_pointer.frame`: the batch (other events in order, then scrolling per axis), nil if empty.
    mutating func frame() -> [PointerEvent]? {
        let scrollSource = source ?? .unknown
        var batch = pending
        batch += vertical.events(axis: .vertical, source: scrollSource)
        batch += horizontal.events(axis: .horizontal, source: scrollSource)
        pending.removeAll()
        vertical = AxisFrame()
        horizontal = AxisFrame()
        source = nil
        return batch.isEmpty ? nil : batch
    }

    private mutating func update(_ axis: PointerAxis, _ change: (inout AxisFrame) -> Void) {
        switch axis {
        case .vertical: change(&vertical)
        case .horizontal: change(&horizontal)
        }
    }
}
