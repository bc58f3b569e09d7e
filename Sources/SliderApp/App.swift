import Posix
import SliderEngine
import SliderOutput
import SliderRender
import WaylandClient

/// How wlslider ends. The numbers are its exit codes.
public enum ExitStatus: Int32, Sendable {
    /// Closed, interrupted (SIGINT/SIGTERM), `quit` on stdin, or stdout's reader gone.
    case success = 0
    /// The compositor or the system failed (the message names what).
    case failure = 1
    /// The command line was wrong.
    case usage = 64
}

/// The wlslider program: shows the slider and runs until it is closed.
public enum Wlslider {
    /// Runs wlslider with checked options; returns the exit code. Call `openClosedStandardDescriptors()`
    /// first thing in `main`.
    public static func run(_ options: AppOptions) -> ExitStatus {
        // A closed pipe must show up as EPIPE on write, not kill us: the sinks handle it.
        ignoreBrokenPipeSignal()
        var configuration = options.slider
        do {
            try configuration.validate()
        } catch {
            report(error.description)
            return .usage
        }
        // SIGINT and SIGTERM become events from here on, so they end even a connect cleanly.
        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor(blocking: terminationSignals)
        } catch {
            report(error.description)
            return .failure
        }
        let connection: WaylandConnection
        do {
            connection = try WaylandConnection(timeoutMilliseconds: connectTimeoutMilliseconds(),
                                               interruption: signals.descriptor)
        } catch where error.kind == .interrupted {
            return .success
        } catch {
            report(error.description)
            return .failure
        }
        connection.onWarning = { report($0) }
        var options = options
        let role = surfaceRole(&options, connection: connection, configuration: &configuration)
        return Session(options: options, configuration: configuration, connection: connection, role: role)
            .run(signals: signals)
    }

    /// How long connecting may take: 5 s, or `WLSLIDER_CONNECT_TIMEOUT_MS` (a compositor across a
    /// slow link, say through waypipe, may need longer).
    static func connectTimeoutMilliseconds() -> Int32 {
        guard let text = environmentVariable("WLSLIDER_CONNECT_TIMEOUT_MS"), let value = Int32(text), value > 0 else {
            return WaylandConnection.connectTimeoutMilliseconds
        }
        return value
    }

    /// The toplevel window, or a layer surface at the screen edge in edge mode. Without layer-shell,
    /// an edge slider falls back to a window (and stops hiding, which only makes sense at an edge),
    /// with a window's opaque background instead of edge mode's transparent one.
    static func surfaceRole(_ options: inout AppOptions, connection: WaylandConnection,
                            configuration: inout SliderConfiguration) -> SurfaceRole {
        let size = options.size ?? configuration.preferredSize
        let logical = LogicalSize(width: Int32(size.width.rounded()), height: Int32(size.height.rounded()))
        guard let edge = configuration.edge else {
            return .toplevel(title: options.title, appID: "wlslider", preferredSize: logical)
        }
        guard connection.hasLayerShell else {
            report("zwlr_layer_shell_v1: not offered by the compositor; showing the slider in a window instead of at the \(edge.rawValue) edge")
            configuration.edge = nil
            // A transparent background (edge mode's, or asked for) would leave only the track and
            // thumb floating over the desktop.
            if options.style.backgroundColor.alpha == 0 { options.style.backgroundColor = SliderStyle().backgroundColor }
            return .toplevel(title: options.title, appID: "wlslider", preferredSize: logical)
        }
        let surfaceEdge: Edge = switch edge {
        case .left: .left
        case .right: .right
        case .top: .top
        case .bottom: .bottom
        }
        return .layer(edge: surfaceEdge, size: logical, keyboardOnDemand: true)
    }
}

/// One run of the slider: the event loop and everything registered with it.
private final class Session {
    private let options: AppOptions
    private let configuration: SliderConfiguration
    private let connection: WaylandConnection
    private let role: SurfaceRole
    private let loop = EventLoop()
    private let clock: AppClock
    private var exitCode = ExitStatus.success
    private var stopping = false

    init(options: AppOptions, configuration: SliderConfiguration, connection: WaylandConnection, role: SurfaceRole) {
        self.options = options
        self.configuration = configuration
        self.connection = connection
        self.role = role
        clock = AppClock(clock: loop.clock)
    }

    func run(signals: consuming SignalDescriptor) -> ExitStatus {
        let slider: Slider
        do {
            slider = try Slider(configuration: configuration, value: options.value, size: options.size, at: 0)
        } catch {
            report(error.description)
            return .usage
        }
        let model = SliderModel(slider)
        let outputs: ValueOutputs
        do {
            outputs = try ValueOutputs(options: options.output, loop: loop, clock: clock, model: model)
        } catch {
            report(error.description)
            return .failure
        }
        let controller = SliderController(
            model: model, style: options.style, clock: clock, loop: loop, outputs: outputs,
            manageInputRegion: configuration.edge != nil)
        let targets = ExternalTargets(controller: controller, loop: loop, clock: clock, settle: options.settle,
                                      format: options.output.format, oscListening: options.oscListen != nil)
        model.onChange = { [unowned outputs, unowned targets, unowned model] in
            outputs.engineChanged()
            // The two fields, not the whole slider: a copy of it per frame costs more than the rest.
            targets.engineChanged(tracking: model.slider.trackingContact != nil, at: model.slider.time)
        }
        targets.onTouch = { [unowned outputs] in outputs.touched($0) }
        controller.onTouchPoints = { [unowned targets] in targets.touchPointsChanged(anyDown: $0, at: $1) }
        outputs.onEmit = { [unowned targets] in targets.recordSent($0, range: $1) }
        let osc: OSCControl?
        do {
            osc = try options.oscListen.map { listen throws(SinkSetupError) in
                try OSCControl(listen: listen, address: options.output.osc?.address ?? OSCDestination.defaultAddress,
                               loop: loop, targets: targets)
            }
        } catch {
            report(error.description)
            return .failure
        }
        loop.addSignalSource(signals) { [unowned self] _ in self.stop(.success) }
        return withExtendedLifetime(osc) { run(controller: controller, outputs: outputs, targets: targets) }
    }

    private func run(controller: SliderController, outputs: ValueOutputs, targets: ExternalTargets) -> ExitStatus {
        controller.onExit = { [unowned self] status, message in
            if let message { report(message) }
            self.stop(status)
        }
        outputs.onNoSinkLeft = { [unowned self] status in self.stop(status) }
        do {
            connection.attach(to: loop)
            controller.surface = try connection.makeSurface(role: role, delegate: controller)
        } catch {
            report(error.description)
            return .failure
        }
        let stdin = StdinControl(loop: loop, controller: controller, targets: targets, exitOnEOF: options.exitOnEOF)
        stdin.onQuit = { [unowned self] in self.stop(.success) }
        controller.emitInitialValue()
        do {
            try loop.run()
        } catch {
            report(String(describing: error))
            exitCode = .failure
        }
        let final = controller.settle()
        outputs.finish(with: final, range: controller.model.range, at: final.time)
        connection.flush()
        if outputs.lastSinkFailed { exitCode = .failure }
        return exitCode
    }

    private func stop(_ code: ExitStatus) {
        guard !stopping else { return }
        stopping = true
        exitCode = code
        loop.stop()
    }
}
