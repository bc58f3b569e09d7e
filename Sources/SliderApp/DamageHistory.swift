import SliderRender

/// What to repaint in a buffer drawn `age` frames ago: the union of the damage of the frames since.
/// A buffer of age 0 (new, or of unknown content), or older than remembered, is repainted whole.
/// Keeps one rectangle per frame in storage reserved once: recording a frame allocates nothing.
struct DamageHistory: Sendable {
    /// How many frames of damage to remember. Older buffers are repainted whole.
    static let depth = 4
    /// The damage of recent frames, newest first.
    private var frames: [PixelRect] = []

    init() {
        frames.reserveCapacity(Self.depth + 1)
    }

    /// Records the damage of a frame about to be drawn (buffer pixels) and returns what the buffer
    /// of `age` must repaint: `whole` when its content is unknown or too old.
    mutating func repaint(for damage: PixelRect, bufferAge age: Int, whole: PixelRect) -> PixelRect {
        defer {
            frames.insert(damage, at: 0)
            if frames.count > Self.depth { frames.removeLast() }
        }
        guard age > 0, age <= frames.count + 1 else { return whole }
        var union = damage
        for rect in frames.prefix(age - 1) { union = union.union(rect) }
        return union
    }
}
