import SliderEngine
import SliderOutput
import SliderRender

/// Where the value stream goes.
public struct OutputOptions: Sendable {
    /// Plain or JSON lines, precision, output scaling.
    public var format = OutputFormat.standard
    /// `--osc HOST:PORT/address`.
    public var osc: OSCDestination? = nil
    /// `--osc-timetags`: bundles stamped with each frame's time.
    public var oscTimetags = false
    /// `--exec CMD ARG...`.
    public var exec: ExecTemplate? = nil
    /// `--audio-out PATH|-`.
    public var audioOut: AudioRateWriter.Destination? = nil
    /// `--rate`, samples per second of the audio-rate output.
    public var rate = 48_000
    /// `--jack`, `--midi-cc` and their companions: wlslider as a JACK client.
    public var jack: JackOutput.Options? = nil

    public init() {}
}

/// Everything the command line decides, already parsed and checked.
public struct AppOptions: Sendable {
    /// The slider's behaviour (range, step, orientation, timings, edge mode ...).
    public var slider = SliderConfiguration()
    /// The initial value (the minimum when nil).
    public var value: Double? = nil
    /// The size asked for, in logical pixels (the configuration's preferred size when nil).
    public var size: SliderSize? = nil
    /// Track shape and colours.
    public var style = SliderStyle()
    /// The window title.
    public var title = "wlslider"
    /// Where the value stream goes.
    public var output = OutputOptions()
    /// Exit when stdin ends instead of carrying on.
    public var exitOnEOF = false
    /// `--osc-listen [HOST:]PORT`: targets from OSC.
    public var oscListen: OSCListenAddress? = nil
    /// `--settle`: how long outside targets wait after a gesture ends, in seconds.
    public var settle = 0.3

    public init() {}
}
