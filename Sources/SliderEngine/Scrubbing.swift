/// Variable scrubbing speed, after Ole Begemann's OBSlider: the further the finger strays from the
/// track (measured across it from where the gesture began), the finer the control.
struct Scrubbing: Sendable, Equatable {
    let speeds: [Double]
    let offsets: [Double]

    /// The speed at `distance` pixels from the track. A threshold applies once the finger is past
    /// it: with the defaults, 1 up to 50 px, 0.5 up to 100 px, 0.25 up to 150 px, 0.1 beyond.
    func speed(atDistance distance: Double) -> Double {
        var index = 0
        for i in offsets.indices.dropFirst() where distance > offsets[i] { index = i }
        return speeds[index]
    }

    /// One movement of a drag, in value units.
    ///
    /// - Parameters:
    ///   - tracked: the value the drag has arrived at so far (unsnapped).
    ///   - finger: the value under the finger, moved 1:1 by `delta` and clamped to the range
    ///     (unlike OBSlider, so nothing drifts at the ends).
    ///   - delta: the movement along the track, in value units.
    ///   - distance: how far the finger now is from the track; `previousDistance` before the move.
    /// - Returns: the new tracked and finger values.
    func move(tracked: Double, finger: Double, delta: Double, distance: Double, previousDistance: Double,
              range: ClosedRange<Double>) -> (tracked: Double, finger: Double) {
        // Clamped at once, so that a movement beyond the largest Double (an infinite delta) ends
        // at the range's end instead of turning into infinity minus infinity below.
        let newFinger = (finger + delta).clamped(to: range)
        var newTracked = (tracked + speed(atDistance: distance) * delta).clamped(to: range)
        if distance < previousDistance {
            // Coming back toward the track: close part of the gap to the finger, all of it once on
            // the track ("meet the finger", as the iPod scrubber and OBSlider do).
            newTracked += (newFinger - newTracked) / (1 + distance)
        }
        return (newTracked.clamped(to: range), newFinger)
    }
}

extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double { min(max(self, range.lowerBound), range.upperBound) }
}
