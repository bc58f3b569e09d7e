import SliderEngine

/// The default slider of these tests: 320x48, horizontal, 0…100. Its thumb travels from x = 22
/// to x = 298 (inset = grown radius 20 + 2 px of shadow room), 276 px for the whole range.
func makeSlider(value: Double = 25, size: SliderSize? = nil,
                _ configure: (inout SliderConfiguration) -> Void = { _ in }) -> Slider {
    var c = SliderConfiguration()
    configure(&c)
    do {
        return try Slider(configuration: c, value: value, size: size)
    } catch {
        fatalError("test slider: \(error)")
    }
}

/// The x coordinate of a value on the default horizontal slider.
func x(ofPercent p: Double) -> Double { 22 + p / 100 * 276 }

/// A point on the centre line of the default horizontal slider.
func onTrack(_ percent: Double, y: Double = 24) -> SliderPoint { SliderPoint(x: x(ofPercent: percent), y: y) }

/// Advances frame by frame at `fps` from `start` up to and including `end`, collecting frames.
func run(_ slider: inout Slider, from start: Double, to end: Double, fps: Double = 60) -> [SliderFrame] {
    var frames: [SliderFrame] = []
    var i = 0.0
    while start + i / fps <= end + 1e-12 {
        frames.append(slider.advance(to: start + i / fps))
        i += 1
    }
    return frames
}

/// Core Animation's ease-in evaluated independently of the engine's solver: bisection on the
/// Bézier's x to 1e-15, for reference values.
func referenceEaseIn(_ x: Double) -> Double {
    func bez(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    var lo = 0.0, hi = 1.0
    while hi - lo > 1e-15 {
        let mid = (lo + hi) / 2
        if bez(mid, 0.42, 1) < x { lo = mid } else { hi = mid }
    }
    return bez((lo + hi) / 2, 0, 1)
}

/// The value an arrow key moves on the default slider, etc.
let travel = 276.0
