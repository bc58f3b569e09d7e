// wl_touch: decoded into TouchEvent batches (TouchBatcher holds the rules) for the surface each
// finger went down on.
internal import CWaylandClient

final class Touch {
    private unowned let seat: Seat
    /// Copied from the seat: a deinit must not read the seat, which may be deinitialising itself.
    private let hasRelease: Bool
    private let proxy: OpaquePointer
    private var batcher = TouchBatcher()
    /// The wl_surface each active (or not yet delivered) touch point went down on, looked up in the
    /// connection's live surfaces at delivery (a surface that goes forgets its points first).
    private(set) var pointSurfaces: [Int32: OpaquePointer] = [:]

    init(seat: Seat) {
        self.seat = seat
        hasRelease = seat.devicesHaveRelease
        proxy = wl_seat_get_touch(seat.proxy)
        wl_touch_add_listener(proxy, Listeners.touch, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if hasRelease { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }

    func down(time: UInt32, surface: OpaquePointer?, id: Int32, x: Double, y: Double) {
        // A finger on a surface that is not ours (or already gone) is none of our business.
        guard let surface, seat.connection.surface(for: surface) != nil else { return }
        pointSurfaces[id] = surface
        batcher.down(id: id, x: x, y: y, time: time)
    }

    func motion(time: UInt32, id: Int32, x: Double, y: Double) {
        batcher.motion(id: id, x: x, y: y, time: time)
    }

    func up(time: UInt32, id: Int32) {
        if let batch = batcher.up(id: id, time: time) { deliver(batch) }
    }

    func frame() {
        if let batch = batcher.frame() { deliver(batch) }
    }

    func cancel() {
        let targets = activeSurfaces()
        let batch = batcher.cancel()
        pointSurfaces.removeAll()
        for target in targets { target.delegate?.surface(target, touch: batch) }
    }

    /// The seat lost touch: cancel a gesture in progress on each surface that has one.
    func deviceRemoved() {
        let targets = activeSurfaces()
        pointSurfaces.removeAll()
        guard let batch = batcher.deviceRemoved() else { return }
        for target in targets { target.delegate?.surface(target, touch: batch) }
    }

    /// Splits a batch by the surface of each event's touch point (usually one surface) and delivers
    /// each part in order; forgets points whose `up` was delivered.
    private func deliver(_ batch: [TouchEvent]) {
        var parts: [(surface: SliderSurface, events: [TouchEvent])] = []
        for event in batch {
            guard let id = event.touchID, let target = seat.connection.surface(for: pointSurfaces[id]) else { continue }
            if let index = parts.firstIndex(where: { $0.surface === target }) {
                parts[index].events.append(event)
            } else {
                parts.append((target, [event]))
            }
            if case .up = event { pointSurfaces[id] = nil }
        }
        for part in parts { part.surface.delegate?.surface(part.surface, touch: part.events) }
    }

    /// A surface is going: its touch points are forgotten (its wl_surface may be reused).
    func surfaceGone(_ surface: OpaquePointer) {
        pointSurfaces = pointSurfaces.filter { $0.value != surface }
    }

    private func activeSurfaces() -> [SliderSurface] {
        var targets: [SliderSurface] = []
        for target in pointSurfaces.values.compactMap({ seat.connection.surface(for: $0) })
        where !targets.contains(where: { $0 === target }) {
            targets.append(target)
        }
        return targets
    }
}

extension TouchEvent {
    /// The touch point this event is about (nil for `.cancel`).
    var touchID: Int32? {
        switch self {
        case let .down(id, _, _, _), let .motion(id, _, _, _), let .up(id, _): id
        case .cancel: nil
        }
    }
}
