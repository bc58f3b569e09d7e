// Pure first-fit allocation of byte ranges inside one shm pool, so buffers of different sizes can come
// and go while the pool (which wl_shm_pool.resize can only grow) is reused.

/// Byte ranges handed out from a pool of `capacity` bytes. Ranges are aligned to `alignment` so each
/// buffer starts on its own cache line. Freed neighbours merge again.
struct PoolAllocator {
    static let alignment = 64

    /// Free ranges, sorted by offset, never adjacent (merged).
    private(set) var free: [Range<Int>]
    private(set) var capacity: Int
    /// Offset → length of each allocated range.
    private(set) var allocated: [Int: Int] = [:]

    init(capacity: Int = 0) {
        self.capacity = capacity
        free = capacity > 0 ? [0..<capacity] : []
    }

    /// Reserves `length` bytes (rounded up to the alignment); nil when no free range is large enough.
    mutating func allocate(_ length: Int) -> Int? {
        let needed = PoolAllocator.aligned(length)
        guard let index = free.firstIndex(where: { $0.count >= needed }) else { return nil }
        let range = free[index]
        if range.count == needed {
            free.remove(at: index)
        } else {
            free[index] = (range.lowerBound + needed)..<range.upperBound
        }
        allocated[range.lowerBound] = needed
        return range.lowerBound
    }

    /// Returns the range at `offset` to the free list.
    mutating func release(_ offset: Int) {
        guard let length = allocated.removeValue(forKey: offset) else { return }
        insertFree(offset..<(offset + length))
    }

    /// The capacity needed to fit `length` more bytes: at least double (so growth stays rare), and
    /// enough for the request on top of a free tail.
    func grownCapacity(toFit length: Int) -> Int {
        let needed = PoolAllocator.aligned(length)
        let tail = free.last.map { $0.upperBound == capacity ? $0.count : 0 } ?? 0
        return max(capacity * 2, capacity + needed - tail)
    }

    /// The pool grew to `newCapacity` (never shrinks): the new bytes are free.
    mutating func grow(to newCapacity: Int) {
        guard newCapacity > capacity else { return }
        let added = capacity..<newCapacity
        capacity = newCapacity
        insertFree(added)
    }

    static func aligned(_ length: Int) -> Int {
        (max(length, 1) + alignment - 1) / alignment * alignment
    }

    private mutating func insertFree(_ range: Range<Int>) {
        var merged = range
        let index = free.firstIndex { $0.lowerBound > range.lowerBound } ?? free.count
        var insertAt = index
        if index < free.count, free[index].lowerBound == merged.upperBound {
            merged = merged.lowerBound..<free[index].upperBound
            free.remove(at: index)
        }
        if index > 0, free[index - 1].upperBound == merged.lowerBound {
            merged = free[index - 1].lowerBound..<merged.upperBound
            free.remove(at: index - 1)
            insertAt = index - 1
        }
        free.insert(merged, at: insertAt)
    }
}
