import Posix
import SliderEngine
import SliderOutput

/// Targets from outside — numbers on stdin, OSC messages — and the finger: follow an outside
/// source without fighting the hand on the slider.
///
/// - While a gesture holds the slider, outside targets wait (the newest one wins; `+N`/`-N` add
///   up on top of it). So they do while any finger is down on it: a second finger is no part of
///   the gesture, but the window starts when the last one lifts.
/// - When the gesture ends, they keep waiting for the settle window (`--settle`, 0.3 s by
///   default), then the waiting one applies: a DAW or controller bound to the same parameter is
///   still sending the values the finger made, late, and would otherwise pull the slider back.
///   The window is counted from the lift's own time on the engine's clock (the compositor's
///   timestamp, as for all input) and waited for on the loop's timer: it ends once both have run
///   for the whole window, which with a real compositor is the same moment.
/// - A value arriving from the touch-down to the window's end that equals one wlslider itself
///   sent in that time (as emitted, as mapped for `--osc`, or as printed) is an echo and is dropped.
///   So is an OSC value, at any time, equal to a value sent in the last ``echoSpan``: a peer that
///   sends back every value it gets (a DAW's feedback, an OSC mirror) would otherwise retarget
///   each glide it did not start to the value of the glide's own first frame, and the slider
///   would never get anywhere. Stdin has no such peer, and a script may well come back to a value
///   it left a moment ago: outside the gesture's window, its values always apply.
/// With `--settle 0` a waiting target applies as soon as the gesture ends, as the engine's own
/// rule alone would do.
final class ExternalTargets {
    /// A target from outside.
    enum Request: Equatable {
        /// `42`, `set -5`, an OSC value: glide to it.
        case absolute(Double)
        /// `+N` / `-N`: glide by this much from the current (or waiting) target.
        case relative(Double)
    }

    private let controller: SliderController
    private let loop: EventLoop
    private let clock: AppClock
    private let settle: Double
    private let mapping: OutputMapping
    private let precision: Int
    private lazy var settleTimer: EventLoop.Timer = loop.makeTimer { [unowned self] in self.windowEnded() }
    /// A gesture holds the slider, or a finger is down on it.
    private var held = false
    /// The engine follows a gesture.
    private var tracking = false
    /// A touch point is down on the surface.
    private var touching = false
    /// From touch-down until the settle window ends.
    private var watching: Bool { held || settleTimer.isScheduled }
    /// Engine time at which the settle window after the last lift ends.
    private var windowEnd = -Double.infinity
    private var waiting: Request?
    /// Inside `coalescing(_:)`.
    private var coalescing = false
    /// What wlslider sent: each sample's value as emitted, as mapped and as printed, as Floats (an
    /// OSC echo comes back as a float32), and when (`clock`). A ring of the newest.
    private var sent: [SIMD4<Float>]
    private var sentAt: [Double]
    private var sentCount = 0
    /// `sentCount` at the touch-down: from there on, whatever was sent counts for the echo rule.
    private var sentAtTouchDown = 0
    private static let sentCapacity = 512
    /// Outside a gesture and its window, a value sent this long ago (seconds) can still come back
    /// as an echo: a peer's reply comes within milliseconds, a DAW's at its screen's rate.
    static let echoSpan = 0.5
    /// Called with true on touch-down and false on lift (`--osc`: ADDRESS/touched).
    var onTouch: (Bool) -> Void = { _ in }

    /// Whether OSC values come in (`--osc-listen`): only they can be echoes outside a gesture's
    /// window, so without them nothing sent outside it needs remembering.
    private let oscListening: Bool

    init(controller: SliderController, loop: EventLoop, clock: AppClock, settle: Double, format: OutputFormat,
         oscListening: Bool) {
        self.oscListening = oscListening
        self.controller = controller
        self.loop = loop
        self.clock = clock
        self.settle = settle
        mapping = format.mapping
        precision = format.precision
        sent = Array(repeating: SIMD4(repeating: .nan), count: Self.sentCapacity)
        sentAt = Array(repeating: -.infinity, count: Self.sentCapacity)
    }

    /// Where a target came from: OSC values can be echoes at any time, stdin's only during a
    /// gesture's window.
    enum Origin {
        case stdin, osc
    }

    /// A target from stdin or OSC: applied now, or waiting for the gesture and its settle window
    /// to end; dropped when it is an echo. Inside `coalescing`, applied when that ends.
    func submit(_ request: Request, from origin: Origin) {
        if case .absolute(let value) = request, isEcho(value, from: origin) { return }
        guard watching || coalescing else { return apply(request) }
        waiting = Self.combine(waiting, request)
    }

    /// Runs `body` (which submits a burst of targets, such as the datagrams one wake-up reads),
    /// then applies what it submitted at once, in one change of the engine: the same target as
    /// applying each in turn, at the cost of one. A flood of OSC packets would otherwise restart
    /// the glide for each, and the socket would overflow meanwhile and drop the newest.
    func coalescing(_ body: () -> Void) {
        coalescing = true
        body()
        coalescing = false
        guard !watching, let request = waiting else { return }
        waiting = nil
        apply(request)
    }

    /// After every change of the engine: notices a gesture beginning and ending. Allocation-free
    /// when nothing happens (it runs per frame).
    func engineChanged(tracking: Bool, at time: Double) {
        self.tracking = tracking
        holdChanged(at: time)
    }

    /// After each touch batch: whether a touch point is down on the surface, and the engine's time.
    func touchPointsChanged(anyDown: Bool, at time: Double) {
        touching = anyDown
        holdChanged(at: time)
    }

    private func holdChanged(at time: Double) {
        let holding = tracking || touching
        guard holding != held else { return }
        held = holding
        if holding {
            loop.cancelTimer(settleTimer)
            sentAtTouchDown = sentCount
        } else {
            // Applied from the loop, never from inside the engine change that ended the gesture.
            windowEnd = time + settle
            loop.schedule(settleTimer, afterMilliseconds: settle * 1000)
        }
        onTouch(holding)
    }

    /// The samples wlslider sends, remembered for the echo rule: during a gesture's window, and
    /// at any time when OSC values come in.
    func recordSent(_ samples: SmallList<ValueSample>, range: SliderRange) {
        guard watching || oscListening else { return }
        let now = clock.now()
        for index in 0..<samples.count {
            let sample = samples[index]
            let mapped = mapping.map(sample.value, range: range)
            let printed = (mapped * Self.powerOfTen(precision)).rounded() / Self.powerOfTen(precision)
            sent[sentCount % Self.sentCapacity] = SIMD4(Float(sample.value), Float(mapped), Float(printed), .nan)
            sentAt[sentCount % Self.sentCapacity] = now
            sentCount += 1
        }
    }

    /// Sent since the touch-down while watching a gesture, else (from OSC) within the last `echoSpan`.
    private func isEcho(_ value: Double, from origin: Origin) -> Bool {
        guard watching || origin == .osc else { return false }
        let v = Float(value)
        let recent = clock.now() - Self.echoSpan
        let first = max(sentCount - Self.sentCapacity, 0)
        for index in first..<sentCount {
            let entry = sent[index % Self.sentCapacity]
            guard entry[0] == v || entry[1] == v || entry[2] == v else { continue }
            if (watching && index >= sentAtTouchDown) || (origin == .osc && sentAt[index % Self.sentCapacity] >= recent) { return true }
        }
        return false
    }

    private func windowEnded() {
        // The timer ran the whole window; the engine's clock may not have yet, when the
        // compositor's stamps run behind our clock (a test's stepped clock): wait for the rest.
        let left = windowEnd - clock.now()
        if left > 0 {
            loop.schedule(settleTimer, afterMilliseconds: max(left * 1000, 1))
            return
        }
        guard let request = waiting else { return }
        waiting = nil
        apply(request)
    }

    private func apply(_ request: Request) {
        do {
            try controller.update { slider, t throws(SliderError) in
                switch request {
                case .absolute(let v): try slider.setTarget(v, at: t)
                case .relative(let d): try slider.moveTarget(by: d, at: t)
                }
            }
        } catch {
            report("ignored target \(request): \(error)")
        }
    }

    /// The newest absolute target wins; relative changes add up on top of what waits.
    static func combine(_ waiting: Request?, _ new: Request) -> Request {
        switch (waiting, new) {
        case (.absolute(let a)?, .relative(let d)): .absolute(finite(a + d))
        case (.relative(let a)?, .relative(let d)): .relative(finite(a + d))
        default: new
        }
    }

    private static func finite(_ v: Double) -> Double {
        v.isFinite ? v : (v > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
    }

    private static func powerOfTen(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }
}
