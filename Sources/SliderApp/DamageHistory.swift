import SliderRender

/// What to repaint in a buffer drawn `age` frames ago: the union of the damage of the frames since.
/// A buffer of age 0 (new, or of unknown content), or older than remembered, is repainted whole.
/// Keeps one rectangle per frame in a ring allocated once: recording a frame allocates nothing
/// (and moves nothing, as inserting at the front of an array did).
struct DamageHistory: Sendable {
    /// How many frames of damage to remember. Older buffers are repainted whole.
    static let depth = 4
    /// The damage of recent frames, a ring: `newest` is the index of the last frame recorded.
    private var frames = [PixelRect](repeating: PixelRect(x: 0, y: 0, width: 0, height: 0), count: depth)
    private var newest = depth - 1
    /// How many frames are recorded (at most `depth`).
    private var recorded = 0

    /// Records the damage of a frame about to be drawn (buffer pixels) and returns what the buffer
    /// of `age` must repaint: `whole` when its content is unknown or too old.
    mutating func repaint(for damage: PixelRect, bufferAge age: Int, whole: PixelRect) -> PixelRect {
        defer {
            newest = newest == Self.depth - 1 ? 0 : newest + 1
            frames[newest] = damage
            recorded = min(recorded + 1, Self.depth)
        }
        guard age > 0, age <= recorded + 1 else { return whole }
        var union = damage
        var index = newest
        for _ in 0..<(age - 1) {
            union = union.union(frames[index])
            index = index == 0 ? Self.depth - 1 : index - 1
        }
        return union
    }
}
