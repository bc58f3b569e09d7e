import SliderEngine
import SliderOutput

/// The engine as the app holds it: one `Slider`, which the controller drives (input, frames,
/// commands) and the sinks read between frames (the audio-rate stream samples it).
final class SliderModel: ValueSource {
    var slider: Slider

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
