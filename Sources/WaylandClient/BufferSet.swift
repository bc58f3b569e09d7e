// Pure bookkeeping of a surface's shm buffers: which ones the compositor holds, which size they have,
// and how old their content is. No Wayland here, so every rule is unit-tested.

/// The buffers of one surface and the rules for handing them out:
/// - never hand out a buffer the compositor holds (busy from commit until `wl_buffer.release`);
/// - reuse a free buffer of the requested size, preferring the one drawn most recently (smallest age,
///   so the app repaints the least);
/// - when all are busy, allocate another (sway holds buffers for a while, two are not enough), up to
///   `maximumCount`;
/// - drop buffers of a stale size: free ones at the next `acquire`, busy ones when released.
///
/// Age is the EGL buffer-age idea: 1 = the buffer holds the frame presented last, 2 = the one before,
/// ...; 0 = its content is unknown (new buffer, abandoned draw, or invalidated) and must be fully drawn.
struct BufferSet {
    /// More buffers than this means the compositor is not releasing them: stop allocating.
    static let maximumCount = 8

    struct Slot: Equatable {
        let id: Int
        let size: PixelSize
        var isBusy = false
        /// The present count at which this buffer was last committed; nil = content unknown.
        var presentedAt: UInt64?
    }

    /// What `acquire` decided.
    enum Choice: Equatable {
        /// Draw into buffer `id`; its content is `age` presents old (0 = unknown).
        case reuse(id: Int, age: Int)
        /// No free buffer of the size: allocate one and `add` it.
        case allocate
        /// All `maximumCount` buffers are busy: wait for a release.
        case exhausted
    }

    private(set) var slots: [Slot] = []
    private var presentCount: UInt64 = 0
    private var nextID = 0
    /// The size of the last `acquire`: released buffers of another size are dropped.
    private(set) var currentSize: PixelSize?

    /// Chooses a buffer of `size` and drops the free buffers of other sizes. Returns the choice and
    /// the ids dropped (the caller destroys their `wl_buffer`s).
    mutating func acquire(size: PixelSize) -> (choice: Choice, dropped: [Int]) {
        currentSize = size
        // Without building arrays on the way: this runs every frame.
        var dropped: [Int] = []
        if slots.contains(where: { !$0.isBusy && $0.size != size }) {
            dropped = slots.filter { !$0.isBusy && $0.size != size }.map(\.id)
            slots.removeAll { !$0.isBusy && $0.size != size }
        }
        var best: Slot?
        for slot in slots where !slot.isBusy && slot.size == size {
            if let current = best, (slot.presentedAt ?? 0, -slot.id) <= (current.presentedAt ?? 0, -current.id) { continue }
            best = slot
        }
        if let best {
            return (.reuse(id: best.id, age: age(of: best)), dropped)
        }
        return (slots.count >= BufferSet.maximumCount ? .exhausted : .allocate, dropped)
    }

    /// Records a newly allocated buffer of `size` (free, age 0) and returns its id.
    mutating func add(size: PixelSize) -> Int {
        nextID += 1
        slots.append(Slot(id: nextID, size: size))
        return nextID
    }

    /// The buffer was committed: it is busy until released, and now the youngest content (age 1).
    mutating func presented(_ id: Int) {
        guard let index = slots.firstIndex(where: { $0.id == id }) else { return }
        presentCount += 1
        slots[index].isBusy = true
        slots[index].presentedAt = presentCount
    }

    /// The buffer was drawn into (maybe partly) but not committed: its content is unknown now.
    mutating func abandoned(_ id: Int) {
        guard let index = slots.firstIndex(where: { $0.id == id }) else { return }
        slots[index].presentedAt = nil
    }

    /// The compositor released the buffer. Returns true when it is of a stale size and was dropped
    /// (the caller destroys its `wl_buffer`).
    mutating func released(_ id: Int) -> Bool {
        guard let index = slots.firstIndex(where: { $0.id == id }) else { return false }
        if let currentSize, slots[index].size != currentSize {
            slots.remove(at: index)
            return true
        }
        slots[index].isBusy = false
        return false
    }

    /// Forgets a buffer entirely (e.g. its allocation failed half-way).
    mutating func remove(_ id: Int) {
        slots.removeAll { $0.id == id }
    }

    /// Marks every buffer's content unknown (age 0): the scale or what is drawn changed in a way damage
    /// tracking cannot express.
    mutating func invalidateContents() {
        for index in slots.indices { slots[index].presentedAt = nil }
    }

    /// How many presents ago buffer `id` was drawn (0 = unknown content, or no such buffer).
    func age(of id: Int) -> Int {
        slots.first { $0.id == id }.map(age(of:)) ?? 0
    }

    /// Whether the compositor holds buffer `id`.
    func isBusy(_ id: Int) -> Bool {
        slots.first { $0.id == id }?.isBusy ?? false
    }

    private func age(of slot: Slot) -> Int {
        guard let presentedAt = slot.presentedAt else { return 0 }
        return Int(presentCount - presentedAt + 1)
    }
}
