import Posix
import SliderEngine
import SliderRender
import WaylandClient

/// Ties the engine to the surface: input in, frames out, paced by frame callbacks.
///
/// Input only marks the slider dirty; a frame is drawn at once when no frame callback is pending,
/// otherwise when it arrives, and the next callback is asked for only while something animates, so
/// an idle slider costs no wake-ups at all.
///
/// The value stream does not depend on being seen: a compositor sends no frame callbacks to a
/// hidden window (another workspace, minimised, occluded, a stalled compositor), and a window not
/// configured yet draws nothing. While something moves and no callback has come for a frame
/// interval and a half (two and a half at most: that timer may fire a frame late, so that it is
/// set once every other frame), a timer at the output's refresh rate drives the sinks instead,
/// without drawing; drawing resumes with the next callback. Nothing runs while nothing moves.
final class SliderController: SliderSurfaceDelegate {
    /// The engine, shared with the sinks that sample it.
    let model: SliderModel
    private let renderer: SliderRenderer
    private let clock: AppClock
    private let loop: EventLoop
    private let outputs: ValueOutputs
    private let manageInputRegion: Bool
    /// Set once the surface exists (it needs this object as its delegate first).
    var surface: SliderSurface?
    /// Called when the app must stop, with how, and the line to print (if any).
    var onExit: (ExitStatus, String?) -> Void = { _, _ in }
    /// Called after each touch batch: whether a touch point is still down on the surface (one the
    /// engine follows or not), and the engine's time then.
    var onTouchPoints: (Bool, Double) -> Void = { _, _ in }

    private var pacer = FramePacer()
    private var history = DamageHistory()
    private var input = InputMapping()
    /// While animating without a frame callback to wait for: draws at the frame rate (`drawing`),
    /// or only samples the value for the sinks (the callback is late: a hidden window).
    private lazy var frameTimer: EventLoop.Timer = loop.makeTimer { [unowned self] in
        if self.frameTimerDraws { self.draw(at: self.clock.now()) } else { self.sampleUnseen() }
    }
    private var frameTimerDraws = false
    /// When the pending frame callback was asked for.
    private var callbackRequestedAt: MonotonicInstant?
    /// The next frame repaints every pixel (first frame, new scale, buffers lost).
    private var repaintAll = true

    init(model: SliderModel, style: SliderStyle, clock: AppClock, loop: EventLoop, outputs: ValueOutputs,
         manageInputRegion: Bool) {
        self.model = model
        renderer = SliderRenderer(style: style)
        self.clock = clock
        self.loop = loop
        self.outputs = outputs
        self.manageInputRegion = manageInputRegion
    }

    // MARK: Changes from outside

    /// Applies a change to the engine (an outside command) and schedules a frame.
    func update(_ change: (inout Slider, Double) throws(SliderError) -> Void) throws(SliderError) {
        try change(&model.slider, clock.now())
        requestFrame()
    }

    /// Ends the glide now and returns the value to leave the sinks with: the target, so a glide cut
    /// short by SIGTERM or `quit` still delivers where it was going, on every sink (the audio-rate
    /// stream samples the settled engine).
    func settle() -> ValueSample {
        let t = clock.now()
        loop.cancelTimer(frameTimer)
        model.slider.settle(at: t)
        return ValueSample(time: t, value: model.slider.target, phase: .idle)
    }

    // MARK: SliderSurfaceDelegate

    func surface(_ surface: SliderSurface, configured logicalSize: LogicalSize) {
        model.slider.resize(to: SliderSize(width: Double(logicalSize.width), height: Double(logicalSize.height)))
        repaintAll = true
        requestFrame()
    }

    func surfaceClosed(_ surface: SliderSurface) {
        onExit(.success, nil)
    }

    func surface(_ surface: SliderSurface, scaleChanged scale: SurfaceScale) {
        repaintAll = true
        if surface.isConfigured { requestFrame() }
    }

    func surface(_ surface: SliderSurface, frameDone timeMs: UInt32) {
        let t = clock.time(ofStamp: timeMs)
        callbackRequestedAt = nil
        if pacer.frameDone() { draw(at: t) }
    }

    func surface(_ surface: SliderSurface, touch batch: [TouchEvent]) {
        let contact = model.slider.trackingContact
        feed(stamp: batch.last { $0.time != nil }?.time) { input.forEachInput(forTouch: batch, contactInGesture: contact, $0) }
        input.followTouchPoints(batch)
        onTouchPoints(!input.touchPointsDown.isEmpty, model.slider.time)
    }

    func surface(_ surface: SliderSurface, pointer batch: [PointerEvent]) {
        let contact = model.slider.trackingContact
        feed(stamp: batch.last { $0.time != nil }?.time) { input.forEachInput(forPointer: batch, contactInGesture: contact, $0) }
    }

    func surface(_ surface: SliderSurface, keyboard event: KeyboardEvent) {
        guard case let .key(keysym, _, state, _, time) = event, state != .released,
              let key = SliderKey(keysym: keysym) else { return }
        feed(stamp: time) { $0(.key(key, isRepeat: state == .repeated)) }
    }

    // MARK: Frames

    /// Feeds the inputs `inputs` hands over to the engine, at the compositor's time of their batch
    /// (now, when it gave none), and schedules a frame when the engine used any.
    private func feed(stamp: UInt32?, _ inputs: ((SliderInput) -> Void) -> Void) {
        let t = stamp.map { clock.time(ofStamp: $0) } ?? clock.now()
        var used = false
        inputs { used = model.slider.handle($0, at: t) || used }
        if used { requestFrame() }
    }

    /// Marks the slider dirty; draws at once unless a frame callback is on its way (then, should
    /// the callback be late, the sinks are driven without it).
    func requestFrame() {
        if pacer.markDirty() {
            draw(at: clock.now())
        } else {
            watchForLateCallback()
        }
    }

    private func draw(at t: Double) {
        guard let surface, surface.isConfigured else {
            // Nothing can be shown before the first configure; the value stream goes on.
            sampleUnseen()
            return
        }
        let frame = model.slider.advance(to: t)
        outputs.emit(frame.samples, range: model.range)
        if manageInputRegion && (frame.inputRegionChanged || repaintAll) {
            surface.setInputRegion([Self.logicalRect(enclosing: frame.appearance.visibleBand)])
        }
        var callback = false
        if frame.needsRedraw || repaintAll {
            callback = present(frame, on: surface)
        } else if frame.inputRegionChanged && manageInputRegion {
            surface.commit()
        }
        // A frame the compositor's held buffers kept us from drawing is still owed.
        pacer.drew(requestedCallback: callback, animating: frame.isAnimating || repaintAll)
        // The frame timer is moved or cancelled here, not cancelled first and set again: while
        // animating, one frame's watch for a late callback just moves the previous one's.
        let requestedAt = callback ? loop.now() : nil
        if let requestedAt { callbackRequestedAt = requestedAt }
        switch (frame.isAnimating, requestedAt) {
        case (true, nil):
            // Still moving but nothing to show this frame (an edge hide delay): wake on a timer,
            // since a commit without damage need not produce a frame callback.
            startFrameTimer(drawing: true, afterMilliseconds: frameInterval)
        case (true, let requestedAt?):
            watchForLateCallback(requestedAt: requestedAt)
        case (false, _):
            loop.cancelTimer(frameTimer)
        }
    }

    /// Presents the frame; returns true when a frame callback is now pending.
    private func present(_ frame: SliderFrame, on surface: SliderSurface) -> Bool {
        do {
            let result = try surface.present(requestingFrame: frame.isAnimating) { pixels, buffer in
                paint(frame, into: &pixels, buffer: buffer)
            }
            switch result {
            case .presented:
                repaintAll = false
                return frame.isAnimating
            case .nothingDamaged:
                return frame.isAnimating
            case .buffersBusy:
                // Nothing was drawn and this frame's damage is gone: repaint whole next time.
                repaintAll = true
                return true
            }
        } catch {
            onExit(.failure, error.description)
            return false
        }
    }

    private func paint(_ frame: SliderFrame, into pixels: inout MutableRawSpan, buffer: PixelBuffer) -> BufferRect? {
        let layout = PixelLayout(width: Int(buffer.size.width), height: Int(buffer.size.height), stride: Int(buffer.stride))
        let damage = repaintAll ? layout.bounds : renderer.deviceDamage(
            forLogical: frame.damage, scale: buffer.scale.factor, bufferWidth: layout.width, bufferHeight: layout.height)
        guard let damage else { return nil }
        let repaint = history.repaint(for: damage, bufferAge: buffer.age, whole: layout.bounds)
        guard let touched = renderer.render(scene(frame.appearance), scale: buffer.scale.factor, into: &pixels,
                                            layout: layout, damage: repaint) else { return nil }
        return BufferRect(x: Int32(touched.x), y: Int32(touched.y), width: Int32(touched.width), height: Int32(touched.height))
    }

    private func scene(_ a: SliderAppearance) -> SliderScene {
        SliderScene(axis: model.slider.configuration.orientation, track: a.track, fillEnd: a.fillEnd,
                    thumbCenter: a.thumbCenter, thumbRadius: a.thumbRadius)
    }

    // MARK: Without frame callbacks

    /// One frame on the outputs showing the surface (60 Hz when unknown), in milliseconds.
    private var frameInterval: Double { surface?.frameIntervalMilliseconds ?? 1000.0 / 60 }

    /// How long after it was asked for a frame callback counts as late: a frame and a half, or
    /// `WLSLIDER_LATE_FRAME_MS` (for compositors that are slow on purpose, such as a test
    /// compositor stepping a virtual clock).
    private func lateCallbackMilliseconds(frameInterval: Double) -> Double {
        lateFrameOverride ?? frameInterval * 1.5
    }

    private let lateFrameOverride: Double? = environmentVariable("WLSLIDER_LATE_FRAME_MS")
        .flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }

    /// While a callback is pending and something moves: if the callback has not come in time,
    /// sample the value without it.
    private func watchForLateCallback() {
        guard !frameTimer.isScheduled else { return }
        watchForLateCallback(requestedAt: callbackRequestedAt ?? loop.now())
    }

    /// The late-callback timer for a callback asked for at `requestedAt`. It may fire up to two
    /// frames later than that (so at most three and a half frames after the request), never
    /// earlier. The loop sets its wake-up at the end of that leeway, which then still lies
    /// within the next frame's watch even when callbacks come a frame and a half apart (headless
    /// weston answers every 25 ms at "60 Hz"): the wake-up is set again only every other frame.
    /// With one frame of leeway it lay on the very edge of the next frame's watch, and was set
    /// again at 86 of 88 frames under weston.
    private func watchForLateCallback(requestedAt: MonotonicInstant) {
        frameTimerDraws = false
        let interval = frameInterval
        loop.schedule(frameTimer, at: requestedAt.advanced(byMilliseconds: lateCallbackMilliseconds(frameInterval: interval)),
                      leewayMilliseconds: 2 * interval)
    }

    /// Emits the value at this moment without drawing, and carries on at the frame rate while it
    /// moves: the window is hidden or not configured, so no frame callback paces the stream.
    private func sampleUnseen() {
        loop.cancelTimer(frameTimer)
        let t = clock.now()
        outputs.emit(model.slider.samplesWithoutFrame(at: t), range: model.range)
        if model.slider.isAnimating(at: t) { startFrameTimer(drawing: false, afterMilliseconds: frameInterval) }
    }

    private func startFrameTimer(drawing: Bool, afterMilliseconds delay: Double) {
        frameTimerDraws = drawing
        loop.schedule(frameTimer, afterMilliseconds: delay)
    }

    /// The smallest whole-pixel rectangle containing `r`, within what 32-bit Wayland coordinates
    /// hold: edges beyond ±2^31 are clamped there, and a rectangle with a NaN edge is empty.
    static func logicalRect(enclosing r: SliderRect) -> LogicalRect {
        guard !(r.minX.isNaN || r.minY.isNaN || r.maxX.isNaN || r.maxY.isNaN) else {
            return LogicalRect(x: 0, y: 0, width: 0, height: 0)
        }
        func clamped(_ v: Double) -> Double { min(max(v, Double(Int32.min)), Double(Int32.max)) }
        let x0 = clamped(r.minX.rounded(.down)), y0 = clamped(r.minY.rounded(.down))
        let x1 = clamped(r.maxX.rounded(.up)), y1 = clamped(r.maxY.rounded(.up))
        return LogicalRect(x: Int32(x0), y: Int32(y0),
                           width: Int32(min(max(0, x1 - x0), Double(Int32.max))),
                           height: Int32(min(max(0, y1 - y0), Double(Int32.max))))
    }
}

extension SliderController {
    /// Emits the value the slider starts with, before the compositor has shown anything: the
    /// stream begins at once.
    func emitInitialValue() {
        outputs.emit(model.slider.advance(to: clock.now()).samples, range: model.range)
        repaintAll = true
    }
}
