import Testing
@testable import WaylandClient

private let small = PixelSize(width: 320, height: 48)
private let large = PixelSize(width: 640, height: 96)

/// Acquires a buffer of `size`, adding one when the set asks for it; returns its id and age.
private func take(_ set: inout BufferSet, _ size: PixelSize = small) -> (id: Int, age: Int) {
    switch set.acquire(size: size).choice {
    case let .reuse(id, age): return (id, age)
    case .allocate: return (set.add(size: size), 0)
    case .exhausted: Issue.record("unexpectedly exhausted"); return (-1, -1)
    }
}

@Suite struct BufferSetTests {
    @Test func firstAcquireAllocatesANewBufferWithUnknownContent() {
        var set = BufferSet()
        #expect(set.acquire(size: small).choice == .allocate)
        let id = set.add(size: small)
        #expect(set.acquire(size: small).choice == .reuse(id: id, age: 0))
    }

    @Test func neverHandsOutABufferTheCompositorHolds() {
        var set = BufferSet()
        let first = take(&set)
        set.presented(first.id)
        #expect(set.isBusy(first.id))
        #expect(set.acquire(size: small).choice == .allocate)
        let second = set.add(size: small)
        set.presented(second)
        // Both held: a third is allocated rather than waiting (sway holds buffers for a while).
        #expect(set.acquire(size: small).choice == .allocate)
    }

    @Test func releasedBufferIsReusedWithItsAge() {
        var set = BufferSet()
        let a = take(&set)
        set.presented(a.id)
        let b = take(&set)
        set.presented(b.id)
        #expect(set.released(a.id) == false)
        // a holds the frame before last: age 2.
        #expect(set.acquire(size: small).choice == .reuse(id: a.id, age: 2))
    }

    @Test func prefersTheMostRecentlyDrawnFreeBuffer() {
        var set = BufferSet()
        let a = take(&set); set.presented(a.id)
        let b = take(&set); set.presented(b.id)
        let c = take(&set); set.presented(c.id)
        _ = set.released(a.id)
        _ = set.released(b.id)
        _ = set.released(c.id)
        #expect(set.acquire(size: small).choice == .reuse(id: c.id, age: 1))
        #expect(set.age(of: b.id) == 2)
        #expect(set.age(of: a.id) == 3)
    }

    @Test func agesGrowWithEveryPresent() {
        var set = BufferSet()
        let a = take(&set); set.presented(a.id); _ = set.released(a.id)
        for expected in [1, 1, 1] {
            let again = take(&set)
            #expect(again.id == a.id)
            #expect(again.age == expected)
            set.presented(again.id)
            _ = set.released(again.id)
        }
        let b = set.add(size: small)
        set.presented(b)
        #expect(set.age(of: a.id) == 2)
    }

    @Test func freeBuffersOfAStaleSizeAreDroppedAtAcquire() {
        var set = BufferSet()
        let a = take(&set); set.presented(a.id); _ = set.released(a.id)
        let (choice, dropped) = set.acquire(size: large)
        #expect(choice == .allocate)
        #expect(dropped == [a.id])
        #expect(set.slots.isEmpty)
    }

    @Test func busyBuffersOfAStaleSizeAreDroppedWhenReleased() {
        var set = BufferSet()
        let a = take(&set); set.presented(a.id)
        let (choice, dropped) = set.acquire(size: large)
        #expect(choice == .allocate)
        #expect(dropped.isEmpty)
        #expect(set.released(a.id) == true)
        #expect(!set.slots.contains { $0.id == a.id })
    }

    @Test func abandonedDrawMakesContentUnknown() {
        var set = BufferSet()
        let a = take(&set); set.presented(a.id); _ = set.released(a.id)
        let again = take(&set)
        #expect(again.age == 1)
        set.abandoned(again.id)
        #expect(take(&set).age == 0)
    }

    @Test func invalidateResetsEveryAge() {
        var set = BufferSet()
        let a = take(&set); set.presented(a.id); _ = set.released(a.id)
        set.invalidateContents()
        #expect(set.acquire(size: small).choice == .reuse(id: a.id, age: 0))
    }

    @Test func stopsAllocatingWhenEveryBufferIsHeld() {
        var set = BufferSet()
        for _ in 0..<BufferSet.maximumCount {
            let buffer = take(&set)
            set.presented(buffer.id)
        }
        #expect(set.acquire(size: small).choice == .exhausted)
        _ = set.released(set.slots[3].id)
        #expect(set.acquire(size: small).choice == .reuse(id: set.slots[3].id, age: BufferSet.maximumCount - 3))
    }

    @Test func releaseOfUnknownBufferIsIgnored() {
        var set = BufferSet()
        #expect(set.released(42) == false)
        #expect(set.age(of: 42) == 0)
    }
}

@Suite struct PoolAllocatorTests {
    @Test func allocatesAlignedRangesFirstFit() {
        var pool = PoolAllocator(capacity: 1024)
        #expect(pool.allocate(100) == 0)
        #expect(pool.allocate(100) == 128)
        #expect(pool.allocate(1000) == nil)
        #expect(pool.free == [256..<1024])
    }

    @Test func freedNeighboursMerge() {
        var pool = PoolAllocator(capacity: 1024)
        let a = pool.allocate(256)!, b = pool.allocate(256)!, c = pool.allocate(256)!
        pool.release(a)
        pool.release(c)
        #expect(pool.free == [0..<256, 512..<1024])
        pool.release(b)
        #expect(pool.free == [0..<1024])
        #expect(pool.allocated.isEmpty)
    }

    @Test func reusesAFreedHoleOfTheRightSize() {
        var pool = PoolAllocator(capacity: 1024)
        let a = pool.allocate(256)!
        _ = pool.allocate(256)
        pool.release(a)
        #expect(pool.allocate(200) == 0)
    }

    @Test func growthAtLeastDoublesAndMergesWithTheFreeTail() {
        var pool = PoolAllocator(capacity: 1024)
        _ = pool.allocate(768)
        #expect(pool.allocate(1000) == nil)
        let grown = pool.grownCapacity(toFit: 1000)
        #expect(grown == 2048)
        pool.grow(to: grown)
        #expect(pool.free == [768..<2048])
        #expect(pool.allocate(1000) == 768)
    }

    @Test func growthFitsALargeRequest() {
        var pool = PoolAllocator(capacity: 1024)
        _ = pool.allocate(1024)
        #expect(pool.grownCapacity(toFit: 10_000) == 1024 + PoolAllocator.aligned(10_000))
    }
}
