import SliderEngine
import SliderOutput

/// The engine as the app holds it: one `Slider`, which the controller drives (input, frames,
/// commands) and the sinks read between frames (the audio-rate stream samples it).
final class SliderModel: ValueSource {
    /// Every change of the slider, whoever makes it (input, a command, a frame), is followed by
    /// `onChange`: the JACK sink hands a changed course to its real-time thread at once, and the
    /// outside-target rules see a gesture begin and end.
    var slider: Slider {
        didSet { onChange() }
    }
    /// Called after every change of `slider`; cheap, allocation-free work only (it runs per frame).
    var onChange: () -> Void = {}

    init(_ slider: Slider) {
        self.slider = slider
    }

    /// The slider's range, for percentages and output scaling (stdin's `min`/`max` change it).
    var range: SliderRange {
        let c = slider.configuration
        return SliderRange(min: c.minimum, max: c.maximum)
    }

    func fill(_ samples: inout MutableSpan<Float>, from startTime: Double, sampleRate: Double) {
        slider.fill(&samples, from: startTime, sampleRate: sampleRate)
    }
}
