import SliderRender

/// What to repaint in a buffer drawn `age` frames ago: the union of the damage of the frames
/// since. A buffer of age 0 (new, or of unknown content) is repainted whole.
struct DamageHistory: Sendable {
    /// How many frames of damage to remember. Older buffers are repainted whole.
    static let depth = 4
    private var frames: [[PixelRect]] = []

    /// Records the damage of a frame about to be drawn (buffer pixels) and returns what the buffer
    /// of `age` must repaint: `nil` meaning everything.
    mutating func repaint(for damage: [PixelRect], bufferAge age: Int) -> [PixelRect]? {
        defer {
            frames.insert(damage, at: 0)
            if frames.count > Self.depth { frames.removeLast() }
        }
        guard age > 0, age <= frames.count + 1 else { return nil }
        return frames.prefix(age - 1).reduce(damage, +)
    }
}
