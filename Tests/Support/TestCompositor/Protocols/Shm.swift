// wl_shm buffers. The wl_shm global and its pools are libwayland's own (wl_display_init_shm: it
// maps the client's file and guards reads against SIGBUS); this file numbers the buffers, copies
// their pixels at commit, checksums the ones the compositor holds, and sends wl_buffer.release.
internal import CWaylandServer

/// One `wl_buffer` a client attached at least once.
final class BufferObject {
    let resource: OpaquePointer
    let id: BufferID
    let client: ClientID
    let width: Int32, height: Int32, stride: Int32
    let format: ShmFormat
    var isHeld = false
    var isDestroyed = false
    /// Set when a change was reported, so one write is reported once per commit.
    var writeReported = false
    var checksumAtCommit: UInt64?
    var destroyListener: SignalListener?

    init(resource: OpaquePointer, id: BufferID, client: ClientID, shm: OpaquePointer) {
        self.resource = resource
        self.id = id
        self.client = client
        width = wl_shm_buffer_get_width(shm)
        height = wl_shm_buffer_get_height(shm)
        stride = wl_shm_buffer_get_stride(shm)
        format = ShmFormat(rawValue: wl_shm_buffer_get_format(shm))
    }

    /// Runs `body` on the buffer's bytes (`height * stride` of them) inside libwayland's SIGBUS guard.
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        let shm = wl_shm_buffer_get(resource)
        wl_shm_buffer_begin_access(shm)
        defer { wl_shm_buffer_end_access(shm) }
        let bytes = UnsafeRawBufferPointer(start: wl_shm_buffer_get_data(shm), count: Int(height) * Int(stride))
        return body(bytes)
    }

    var checksum: UInt64 { withBytes(fnv1a) }
}

extension Server {
    /// The object for a client's `wl_buffer`, made (and numbered) on its first attach; nil when it
    /// is not a `wl_shm` buffer.
    func bufferObject(for resource: OpaquePointer, client: ClientID) -> BufferObject? {
        if let known = buffers[resource] { return known }
        guard let shm = wl_shm_buffer_get(resource) else { return nil }
        let buffer = BufferObject(resource: resource, id: BufferID(bufferIDs.next()), client: client, shm: shm)
        buffer.destroyListener = SignalListener { [unowned self, unowned buffer] _ in
            buffer.destroyListener?.remove()
            self.bufferDestroyed(buffer)
        }
        wl_resource_add_destroy_listener(resource, buffer.destroyListener!.listener)
        buffers[resource] = buffer
        state.buffers[buffer.id] = BufferState(
            id: buffer.id, client: client, width: buffer.width, height: buffer.height, stride: buffer.stride, format: buffer.format)
        return buffer
    }

    private func bufferDestroyed(_ buffer: BufferObject) {
        buffer.isDestroyed = true
        buffer.isHeld = false
        buffers[buffer.resource] = nil
        state.buffers[buffer.id]?.isDestroyed = true
        state.buffers[buffer.id]?.isHeld = false
    }

    /// Copies the buffer's pixels and checksum, as a compositor reads them at commit.
    func snapshot(_ buffer: BufferObject) -> BufferSnapshot {
        let (image, checksum) = buffer.withBytes { bytes in (copyPixels(buffer, bytes), fnv1a(bytes)) }
        buffer.checksumAtCommit = checksum
        buffer.writeReported = false
        state.buffers[buffer.id]?.checksumAtLastCommit = checksum
        return BufferSnapshot(
            buffer: buffer.id, width: buffer.width, height: buffer.height, stride: buffer.stride,
            format: buffer.format, image: image, checksum: checksum)
    }

    /// Sends `wl_buffer.release`, after checking that the client left the buffer alone meanwhile.
    func release(_ buffer: BufferObject, noticed: String) {
        guard buffer.isHeld, !buffer.isDestroyed else { return }
        checkUnchanged(buffer, noticed: noticed)
        buffer.isHeld = false
        wl_buffer_send_release(buffer.resource)
        state.buffers[buffer.id]?.isHeld = false
        state.buffers[buffer.id]?.releaseCount += 1
    }

    /// Sends `wl_buffer.release` whatever the buffer's state (a broken compositor's release).
    func sendRelease(_ buffer: BufferObject) {
        if buffer.isHeld { return release(buffer, noticed: "when the test released it") }
        wl_buffer_send_release(buffer.resource)
        state.buffers[buffer.id]?.releaseCount += 1
    }

    /// Checks every buffer the compositor holds for `client` (all clients when nil) for writes.
    func checkHeldBuffers(of client: ClientID?, noticed: String) {
        for buffer in buffers.values where buffer.isHeld && (client == nil || buffer.client == client) {
            checkUnchanged(buffer, noticed: noticed)
        }
    }

    private func checkUnchanged(_ buffer: BufferObject, noticed: String) {
        guard let before = buffer.checksumAtCommit, !buffer.writeReported, !buffer.isDestroyed else { return }
        let now = buffer.checksum
        guard now != before else { return }
        buffer.writeReported = true
        state.heldBufferWrites.append(HeldBufferWrite(
            buffer: buffer.id, client: buffer.client, checksumAtCommit: before, checksumFound: now, noticed: noticed))
    }
}

/// The pixels as packed 0xAARRGGBB values, for the 32-bit formats; nil for others.
private func copyPixels(_ buffer: BufferObject, _ bytes: UnsafeRawBufferPointer) -> Image? {
    guard buffer.format.bytesPerPixel == 4, buffer.width > 0, buffer.height > 0, let base = bytes.baseAddress else { return nil }
    let w = Int(buffer.width), h = Int(buffer.height), stride = Int(buffer.stride)
    guard stride >= w * 4 else { return nil }
    let pixels = [UInt32](unsafeUninitializedCapacity: w * h) { out, count in
        for y in 0..<h {
            UnsafeMutableRawPointer(out.baseAddress! + y * w).copyMemory(from: base + y * stride, byteCount: w * 4)
        }
        count = w * h
    }
    return Image(width: w, height: h, pixels: pixels)
}

/// FNV-1a over 64-bit words (then the tail bytes): fast enough to run on every commit in a debug build.
func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let prime: UInt64 = 0x100_0000_01b3
    let words = bytes.count / 8
    for i in 0..<words {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* prime
    }
    for i in (words * 8)..<bytes.count {
        hash = (hash ^ UInt64(bytes[i])) &* prime
    }
    return hash
}
