// Shared memory for buffers: one memfd per surface, mapped once, shared with the compositor as one
// wl_shm_pool that grows when a larger or an additional buffer is needed; buffers are carved from it.
import Posix
internal import CWaylandClient

/// A memfd (sealed against shrinking, so the compositor's mapping can never fault) shared as one
/// `wl_shm_pool`. `wl_shm_pool.resize` can only grow a pool, so it never shrinks; freed ranges are
/// reused by later buffers.
final class ShmPool {
    private let file: FileDescriptor
    private let proxy: OpaquePointer
    private var mapping: UnsafeMutableRawPointer
    private var allocator: PoolAllocator

    /// The largest pool wl_shm can describe (its sizes and offsets are int32).
    static let maximumCapacity = Int(Int32.max)

    /// Creates a pool of `capacity` bytes.
    init(shm: OpaquePointer, capacity: Int) throws(WaylandError) {
        guard capacity <= ShmPool.maximumCapacity else {
            throw WaylandError(.unsupported, "wl_shm: a pool of \(capacity) bytes is beyond what wl_shm describes (at most 2 GiB)")
        }
        let size = min(PoolAllocator.aligned(capacity), ShmPool.maximumCapacity)
        let file: FileDescriptor
        do throws(Errno) {
            file = try FileDescriptor.memoryFile(name: "wlslider-shm")
        } catch {
            throw .systemCall("memfd_create", errno: error, while: "creating a buffer pool")
        }
        do throws(Errno) {
            try file.truncate(to: size)
        } catch {
            throw .systemCall("ftruncate", errno: error, while: "sizing the buffer pool to \(size) bytes")
        }
        // Sealing protects the compositor, not us; a kernel without seals still works.
        file.sealAgainstShrinking()
        do throws(Errno) {
            mapping = try file.mapShared(size: size)
        } catch {
            throw .systemCall("mmap", errno: error, while: "mapping a \(size)-byte buffer pool")
        }
        proxy = wl_shm_create_pool(shm, file.rawValue, Int32(size))
        allocator = PoolAllocator(capacity: size)
        self.file = consume file
    }

    deinit {
        wl_shm_pool_destroy(proxy)
        unmap(mapping, size: allocator.capacity)
    }

    /// Current size of the pool in bytes.
    var capacity: Int { allocator.capacity }

    /// A new ARGB8888 buffer of `size` pixels carved from the pool (grown if needed).
    func makeBuffer(size: PixelSize) throws(WaylandError) -> ShmBuffer {
        let (stride, length) = try ShmPool.layout(size)
        let offset = try reserve(length)
        let raw = wl_shm_pool_create_buffer(proxy, Int32(offset), size.width, size.height, stride,
                                            WL_SHM_FORMAT_ARGB8888.rawValue)
        return ShmBuffer(proxy: raw!, pool: self, offset: offset, size: size, stride: stride)
    }

    /// The `count` bytes at `offset`; valid until the pool grows (use them right away).
    func bytes(at offset: Int, count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: mapping + offset, count: count)
    }

    /// Returns a buffer's range to the pool.
    func free(offset: Int) {
        allocator.release(offset)
    }

    /// Stride and byte length of an ARGB8888 buffer, or an error when wl_shm cannot describe it.
    static func layout(_ size: PixelSize) throws(WaylandError) -> (stride: Int32, length: Int) {
        let stride = Int64(size.width) * 4
        let length = stride * Int64(size.height)
        guard size.width > 0, size.height > 0, length <= Int64(maximumCapacity) else {
            throw WaylandError(.unsupported, "wl_shm: a \(size) buffer does not fit in a pool (at most 2 GiB, sides > 0)")
        }
        return (Int32(stride), Int(length))
    }

    private func reserve(_ length: Int) throws(WaylandError) -> Int {
        if let offset = allocator.allocate(length) { return offset }
        try grow(to: allocator.grownCapacity(toFit: length))
        guard let offset = allocator.allocate(length) else {
            throw WaylandError(.unsupported, "wl_shm: no room for \(length) bytes in a \(capacity)-byte pool")
        }
        return offset
    }

    private func grow(to wanted: Int) throws(WaylandError) {
        let newCapacity = min(wanted, ShmPool.maximumCapacity)
        guard newCapacity > capacity else { return }
        do throws(Errno) {
            try file.truncate(to: newCapacity)
        } catch {
            throw .systemCall("ftruncate", errno: error, while: "growing the buffer pool to \(newCapacity) bytes")
        }
        let mapped: UnsafeMutableRawPointer
        do throws(Errno) {
            mapped = try file.mapShared(size: newCapacity)
        } catch {
            throw .systemCall("mmap", errno: error, while: "mapping the grown \(newCapacity)-byte buffer pool")
        }
        unmap(mapping, size: capacity)
        mapping = mapped
        wl_shm_pool_resize(proxy, Int32(newCapacity))
        allocator.grow(to: newCapacity)
    }
}

/// One `wl_buffer` in a pool. Destroying it returns its bytes to the pool.
final class ShmBuffer {
    let proxy: OpaquePointer
    let pool: ShmPool
    let offset: Int
    let size: PixelSize
    let stride: Int32
    /// The id the surface's `BufferSet` knows it by.
    var id = 0
    /// Called on `wl_buffer.release`.
    var onRelease: ((ShmBuffer) -> Void)?

    init(proxy: OpaquePointer, pool: ShmPool, offset: Int, size: PixelSize, stride: Int32) {
        self.proxy = proxy
        self.pool = pool
        self.offset = offset
        self.size = size
        self.stride = stride
        wl_proxy_add_dispatcher(proxy, Dispatchers.buffer, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        wl_buffer_destroy(proxy)
        pool.free(offset: offset)
    }

    func release() {
        onRelease?(self)
    }

    /// Its pixels in the pool's mapping; valid until the pool grows (use them right away).
    var bytes: UnsafeMutableRawBufferPointer {
        pool.bytes(at: offset, count: Int(stride) * Int(size.height))
    }
}
