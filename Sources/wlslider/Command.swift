import ArgumentParser
import Posix
import SliderApp
import SliderEngine
import SliderOutput
import SliderRender

struct WlsliderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wlslider",
        abstract: "A Wayland slider whose value glides like an audio parameter.",
        discussion: """
            wlslider shows one slider in a window (or, with --edge, half hidden at a screen edge) and \
            prints its value on stdout, one line per frame in which the value changed. A jump glides \
            instead of stepping, so the stream can drive a volume, a filter or a light directly. \
            Lines on stdin move it: a number sets the value, +N or -N moves it, "min X", "max X" and \
            "step X" change the range, "quit" exits. Exit status: 0 when closed, interrupted or told \
            to quit; 1 when the compositor or the system fails; 64 for a usage error.
            """,
        version: "0.1.0")

    // MARK: Value
    //
    // Options taking numbers parse their next argument unconditionally: `--min -60` is a
    // negative minimum, not a missing value followed by an unknown option `-60`.

    @Option(name: .customLong("min"), parsing: .unconditional, help: ArgumentHelp("The value at the minimum end of the slider. (default: 0)", valueName: "min"))
    var minGiven: Double?

    @Option(name: .customLong("max"), parsing: .unconditional, help: ArgumentHelp("The value at the maximum end of the slider. (default: 100)", valueName: "max"))
    var maxGiven: Double?

    @Option(name: .customLong("value"), parsing: .unconditional, help: "The value to start at. Defaults to the minimum.")
    var value: Double?

    @Option(name: .customLong("step"), parsing: .unconditional, help: "Round every value to a whole number of steps from the minimum; arrow keys move one step.")
    var step: Double?

    // MARK: Shape

    @Option(name: .customLong("orientation"), help: "Which way the slider runs: horizontal (minimum at the left) or vertical (minimum at the bottom). Defaults to the edge's direction with --edge, else horizontal.")
    var orientation: Orientation?

    @Option(name: .customLong("size"), help: ArgumentHelp("The size to ask for, in logical pixels; the smaller side is the slider's thickness. Defaults to 320x48, or 48x320 when vertical.", valueName: "WxH"))
    var size: SizeArgument?

    @Option(name: .customLong("track"), help: ArgumentHelp("The track's shape: a capsule, or a wedge that is thin at the minimum and full at the maximum. (default: capsule)", valueName: "track"))
    var trackGiven: TrackShape?

    @Option(name: .customLong("edge"), help: "Rest half hidden beyond this screen edge and slide in while touched (needs a compositor with wlr-layer-shell).")
    var edge: ScreenEdge?

    @Option(name: .customLong("edge-hide-delay"), parsing: .unconditional, help: ArgumentHelp("How long the slider stays shown after a gesture ends before it slides back, in seconds (with --edge). (default: 0)", valueName: "edge-hide-delay"))
    var edgeHideDelayGiven: Double?

    @Option(name: .customLong("title"), help: ArgumentHelp("The title of the window; one longer than a Wayland message holds (4083 bytes) is cut, with a warning. (default: wlslider)", valueName: "title"))
    var titleGiven: String?

    // MARK: Motion

    @Option(name: .customLong("thumb-scale"), parsing: .unconditional, help: ArgumentHelp("How much the thumb grows while it is held. (default: 2)", valueName: "thumb-scale"))
    var thumbScaleGiven: Double?

    @Option(name: .customLong("thumb-duration"), parsing: .unconditional, help: ArgumentHelp("How long the thumb takes to grow and to shrink back, in seconds. (default: 0.3)", valueName: "thumb-duration"))
    var thumbDurationGiven: Double?

    @Option(name: .customLong("jump-duration"), parsing: .unconditional, help: ArgumentHelp("How long the value glides after a jump (a press away from the thumb, a key, a wheel detent, a value from stdin), in seconds. (default: 0.25)", valueName: "jump-duration"))
    var jumpDurationGiven: Double?

    @Option(name: .customLong("drag-duration"), parsing: .unconditional, help: ArgumentHelp("How long the value glides after each movement of a drag, in seconds. (default: 0.03)", valueName: "drag-duration"))
    var dragDurationGiven: Double?

    @Option(name: .customLong("curve"), help: ArgumentHelp("The timing curve of the glides. (default: ease-in)", valueName: "curve"))
    var curveGiven: CurveArgument?

    @Option(name: .customLong("glide"), help: ArgumentHelp("How the value follows a new target: along the timing curve, restarting from where it is, or as a spring that keeps its speed. (default: curve)", valueName: "glide"))
    var glideGiven: GlideMode?

    @Option(name: .customLong("scrub-speeds"), parsing: .unconditional, help: ArgumentHelp("Scrubbing speeds while dragging away from the track, one per offset. (default: 1,0.5,0.25,0.1)", valueName: "list"))
    var scrubSpeedsGiven: NumberList?

    @Option(name: .customLong("scrub-offsets"), parsing: .unconditional, help: ArgumentHelp("Distances from the track, in logical pixels, past which the next scrubbing speed applies; the first is 0. (default: 0,50,100,150)", valueName: "list"))
    var scrubOffsetsGiven: NumberList?

    // MARK: Colours

    @Option(name: .customLong("track-color"), help: ArgumentHelp("The track's colour.", valueName: "#RRGGBB[AA]"))
    var trackColor: ColorArgument?

    @Option(name: .customLong("fill-color"), help: ArgumentHelp("The colour of the track's filled part, from the minimum to the thumb.", valueName: "#RRGGBB[AA]"))
    var fillColor: ColorArgument?

    @Option(name: .customLong("thumb-color"), help: ArgumentHelp("The thumb's colour.", valueName: "#RRGGBB[AA]"))
    var thumbColor: ColorArgument?

    @Option(name: .customLong("background-color"), help: ArgumentHelp("The background colour; transparent by default at a screen edge.", valueName: "#RRGGBB[AA]"))
    var backgroundColor: ColorArgument?

    // MARK: Output

    @Option(name: .customLong("format"), help: ArgumentHelp("The line format on stdout: plain (the value) or json ({\"t\":ms,\"value\":v,\"phase\":...}). (default: plain)", valueName: "format"))
    var formatGiven: OutputFormat.Style?

    @Option(name: .customLong("precision"), parsing: .unconditional, help: ArgumentHelp("Decimals of the values printed (0 to 17). (default: 2)", valueName: "precision"))
    var precisionGiven: Int?

    @Option(name: .customLong("scale-output"), parsing: .unconditional, help: ArgumentHelp("Map the slider's range onto this range on output, e.g. 0:1.", valueName: "MIN:MAX"))
    var scaleOutput: String?

    @Option(name: .customLong("output-curve"), help: ArgumentHelp("Map the output linearly, or in decibels along the travel (for gain; -60 to 0 dB unless --scale-output says otherwise). (default: linear)", valueName: "output-curve"))
    var outputCurveGiven: OutputCurve?

    @Option(name: .customLong("osc"), help: ArgumentHelp("Send each value as an OSC message over UDP, e.g. 127.0.0.1:57120/wlslider/value; gesture phases go to ADDRESS/phase.", valueName: "HOST:PORT/ADDRESS"))
    var osc: String?

    @Flag(name: .customLong("osc-timetags"), help: "Send OSC bundles stamped with each frame's time, so receivers can schedule them exactly.")
    var oscTimetags = false

    @Option(name: .customLong("exec"), parsing: .upToNextOption,
            help: ArgumentHelp("Run a command (without a shell) for each value, at most one at a time, skipping to the newest value while one runs; {value}, {percent} and {phase} in its arguments are replaced. It takes the arguments up to the next option.", valueName: "command"))
    var exec: [String] = []

    @Option(name: .customLong("audio-out"), help: ArgumentHelp("Write the value as a 32-bit float mono stream at audio rate to this file, or to stdout with -, in real time.", valueName: "path"))
    var audioOut: String?

    @Option(name: .customLong("rate"), parsing: .unconditional, help: ArgumentHelp("Samples per second of the --audio-out stream. (default: 48000)", valueName: "rate"))
    var rateGiven: Int?

    // MARK: Audio graph and control

    @Flag(name: .customLong("jack"), help: "Be a JACK client (jack2, or PipeWire's JACK under pw-jack) with an output port named value that carries the value at the graph's sample rate, every sample on the glide's curve, marked as a control signal (JACK metadata signal-type CV); --scale-output and --output-curve apply.")
    var jack = false

    @Option(name: .customLong("jack-name"), help: ArgumentHelp("The JACK client's name (default: wlslider).", valueName: "name"))
    var jackName: String?

    @Option(name: .customLong("jack-connect"), help: ArgumentHelp("Connect to this JACK port at start; may be given more than once. The value port goes to an audio input, the midi port to a MIDI input.", valueName: "port"))
    var jackConnect: [String] = []

    @Option(name: .customLong("midi-cc"), parsing: .unconditional, help: ArgumentHelp("Send the slider's position (0 to 127 from minimum to maximum) as this MIDI control change, 0 to 127, on a JACK MIDI port named midi: whenever the value changes during a glide, each event at its own sample, and the final value always.", valueName: "number"))
    var midiCc: String?

    @Option(name: .customLong("midi-channel"), parsing: .unconditional, help: ArgumentHelp("The MIDI channel of --midi-cc, 1 to 16 (default: 1).", valueName: "channel"))
    var midiChannel: String?

    @Flag(name: .customLong("midi-14bit"), help: "Send --midi-cc with 14 bits: the most significant 7 on NUMBER (0 to 31), the least significant 7 on NUMBER+32.")
    var midi14bit = false

    @Option(name: .customLong("osc-listen"), parsing: .unconditional, help: ArgumentHelp("Take targets from OSC messages received on this UDP port (on HOST only, if given): a message to the --osc address (default /wlslider/value) with one float, double or int argument sets the target, as a number on stdin does.", valueName: "[host:]port"))
    var oscListen: String?

    @Option(name: .customLong("settle"), parsing: .unconditional, help: ArgumentHelp("How long targets from stdin and OSC wait after a gesture ends, in seconds (they wait during the gesture too); one equal to a value wlslider sent meanwhile (from OSC: or in the last 0.5 s) is an echo and is dropped. (default: 0.3)", valueName: "settle"))
    var settleGiven: Double?

    @Flag(name: .customLong("exit-on-eof"), help: "Exit when stdin ends, instead of carrying on.")
    var exitOnEof = false

    // MARK: Values with their defaults
    //
    // Options with a default are optional underneath, with the default stated in their help: an
    // option declared with a default value makes argument-parser describe that value at every
    // start (a dynamic cast and a String(describing:) per option, about a fifth of its time).

    var min: Double { minGiven ?? 0 }
    var max: Double { maxGiven ?? 100 }
    var track: TrackShape { trackGiven ?? .capsule }
    var edgeHideDelay: Double { edgeHideDelayGiven ?? 0 }
    var title: String { titleGiven ?? "wlslider" }
    var thumbScale: Double { thumbScaleGiven ?? 2 }
    var thumbDuration: Double { thumbDurationGiven ?? 0.3 }
    var jumpDuration: Double { jumpDurationGiven ?? 0.25 }
    var dragDuration: Double { dragDurationGiven ?? 0.03 }
    var curve: CurveArgument { curveGiven ?? .easeIn }
    var glide: GlideMode { glideGiven ?? .curve }
    var scrubSpeeds: NumberList { scrubSpeedsGiven ?? NumberList([1, 0.5, 0.25, 0.1]) }
    var scrubOffsets: NumberList { scrubOffsetsGiven ?? NumberList([0, 50, 100, 150]) }
    var format: OutputFormat.Style { formatGiven ?? .plain }
    var precision: Int { precisionGiven ?? 2 }
    var outputCurve: OutputCurve { outputCurveGiven ?? .linear }
    var rate: Int { rateGiven ?? 48_000 }
    var settle: Double { settleGiven ?? 0.3 }

    // MARK: Running

    func validate() throws {
        _ = try makeOptions()
    }

    func run() throws {
        let code = Wlslider.run(try makeOptions())
        if code != .success { throw ExitCode(code.rawValue) }
    }
}

/// The entry point: before anything else, fd 0, 1 and 2 are made safe to use (a closed one would
/// otherwise be taken over by the first descriptor wlslider opens).
@main
enum Main {
    static func main() {
        openClosedStandardDescriptors()
        WlsliderCommand.main()
    }
}
