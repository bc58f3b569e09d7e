// wl_touch: down/motion/up/frame/cancel/shape/orientation, each on its own, with sub-pixel
// coordinates. A touch point belongs to the surface it went down on, as in a real compositor.
internal import CWaylandServer
internal import CWaylandServerProtocols

/// One touch event, as ``TouchControl/send(_:)`` takes them.
public enum TouchEvent: Sendable {
    case down(id: Int32, surface: SurfaceID, x: Double, y: Double)
    case motion(id: Int32, x: Double, y: Double)
    case up(id: Int32)
    case frame
    case cancel
    case shape(id: Int32, major: Double, minor: Double)
    case orientation(id: Int32, degrees: Double)
}

extension Server {
    /// Sends one touch event; returns the serial for `down` and `up`, else 0.
    func touchEvent(_ event: TouchEvent) throws -> UInt32 {
        let time = state.time
        switch event {
        case .down(let id, let surfaceID, let x, let y):
            guard seat.touchPoints[id] == nil else { throw TestCompositorError("test compositor: wl_touch.down: touch point \(id) is already down") }
            let surface = try self.surface(surfaceID)
            let serial = nextSerial()
            try deliver(.touch, to: surface.client, event: "down") {
                wl_touch_send_down($0.resource, serial, time, surface.resource, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
            }
            seat.touchPoints[id] = surfaceID
            return try finishTouch(surface.client, "down", serial)
        case .motion(let id, let x, let y):
            let client = try touchClient(of: id, "motion")
            try deliver(.touch, to: client, event: "motion") { wl_touch_send_motion($0.resource, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
            return try finishTouch(client, "motion", 0)
        case .up(let id):
            let client = try touchClient(of: id, "up")
            let serial = nextSerial()
            try deliver(.touch, to: client, event: "up") { wl_touch_send_up($0.resource, serial, time, id) }
            seat.touchPoints[id] = nil
            return try finishTouch(client, "up", serial)
        case .frame:
            try deliver(.touch, to: try lastTouchClient("frame"), event: "frame") { wl_touch_send_frame($0.resource) }
        case .cancel:
            try deliver(.touch, to: try lastTouchClient("cancel"), event: "cancel") { wl_touch_send_cancel($0.resource) }
            seat.touchPoints.removeAll()
        case .shape(let id, let major, let minor):
            let client = try touchClient(of: id, "shape")
            try deliver(.touch, to: client, event: "shape", since: 6) { wl_touch_send_shape($0.resource, id, wl_fixed_from_double(major), wl_fixed_from_double(minor)) }
            return try finishTouch(client, "shape", 0)
        case .orientation(let id, let degrees):
            let client = try touchClient(of: id, "orientation")
            try deliver(.touch, to: client, event: "orientation", since: 6) { wl_touch_send_orientation($0.resource, id, wl_fixed_from_double(degrees)) }
            return try finishTouch(client, "orientation", 0)
        }
        return 0
    }

    private func finishTouch(_ client: ClientID, _ event: String, _ serial: UInt32) throws -> UInt32 {
        seat.touchClient = client
        try autoFrame(.touch, client, after: event)
        return serial
    }

    private func touchClient(of id: Int32, _ event: String) throws -> ClientID {
        guard let surfaceID = seat.touchPoints[id] else {
            throw TestCompositorError("test compositor: wl_touch.\(event): touch point \(id) is not down (down: \(seat.touchPoints.keys.sorted()))")
        }
        guard let client = state.surfaces[surfaceID]?.client else { throw TestCompositorError.unknownSurface(surfaceID) }
        return client
    }

    private func lastTouchClient(_ event: String) throws -> ClientID {
        guard let client = seat.touchClient else { throw TestCompositorError("test compositor: wl_touch.\(event): no touch event was sent yet, so no client to send it to") }
        return client
    }
}
