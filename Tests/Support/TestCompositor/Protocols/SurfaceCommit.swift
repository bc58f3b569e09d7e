// wl_surface.commit: check the pending state, apply it, record it (pixels copied), release the
// buffer as the test asked, queue the frame callbacks, and let the role react.
internal import CWaylandServer
internal import CWaylandServerProtocols

extension SurfaceObject {
    func commit() {
        guard validatePending(), role?.validateCommit(self) ?? true else { return }
        server.checkHeldBuffers(of: client, noticed: "at commit \(record.commitCount + 1) of \(id)")
        let attachment = applyAttachment()
        applyDoubleBufferedState()
        let commit = makeCommit(attachment)
        record.commitCount += 1
        record.commits.append(commit)
        if record.commits.count > server.configuration.commitHistoryLimit { record.commits.removeFirst() }
        let callbacks = pending.frameCallbacks
        pending = Pending()
        server.frameCallbacks.committed(callbacks, surface: id, record: &record)
        server.afterCommit(self, attachment: attachment)
        role?.didCommit(self)
    }

    /// Checks what wl_surface itself forbids: a buffer whose size is not a multiple of the scale.
    private func validatePending() -> Bool {
        let scale = pending.bufferScale ?? bufferScale
        let candidate: BufferObject? = switch pending.attach {
        case .buffer(let b): b
        case .unchanged: buffer
        case .removed: nil
        }
        guard let b = candidate, !b.isDestroyed else { return true }
        let transposed = (pending.bufferTransform ?? bufferTransform) & 1 == 1
        let (w, h) = transposed ? (b.height, b.width) : (b.width, b.height)
        guard w % scale == 0 && h % scale == 0 else {
            postError(resource, WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "buffer \(w)×\(h) is not a multiple of buffer scale \(scale)")
            return false
        }
        return viewport?.validate(bufferWidth: w / scale, bufferHeight: h / scale) ?? true
    }

    /// Moves the pending attach into the committed state and copies the new buffer's pixels.
    private func applyAttachment() -> Attachment {
        switch pending.attach {
        case .unchanged:
            return .unchanged
        case .removed:
            server.replaceBuffer(of: self, with: nil)
            return .removed
        case .buffer(let b) where b.isDestroyed:
            // Destroyed between attach and commit: nothing left to show.
            server.replaceBuffer(of: self, with: nil)
            return .removed
        case .buffer(let b):
            let snapshot = server.snapshot(b)
            server.replaceBuffer(of: self, with: b)
            return .buffer(snapshot)
        }
    }

    private func applyDoubleBufferedState() {
        if let scale = pending.bufferScale { bufferScale = scale }
        if let transform = pending.bufferTransform { bufferTransform = transform }
        if let region = pending.inputRegion { inputRegion = region }
        if let region = pending.opaqueRegion { opaqueRegion = region }
        viewport?.applyPending()
    }

    private func makeCommit(_ attachment: Attachment) -> Commit {
        Commit(
            sequence: record.commitCount + 1, time: server.state.time, attachment: attachment,
            bufferScale: bufferScale, bufferTransform: bufferTransform, offset: pending.offset,
            viewportSource: viewport?.source, viewportDestination: viewport?.destination,
            surfaceDamage: pending.surfaceDamage, bufferDamage: pending.bufferDamage,
            inputRegion: inputRegion, opaqueRegion: opaqueRegion,
            frameCallbacks: pending.frameCallbacks.count, ackedSerial: record.acks.last
        )
    }
}

extension Server {
    /// Puts `buffer` (or nothing) in the surface's committed state, releasing the previous buffer
    /// when the test asked for release on replacement.
    func replaceBuffer(of surface: SurfaceObject, with buffer: BufferObject?) {
        let previous = surface.buffer
        surface.buffer = buffer
        surface.record.hasBuffer = buffer != nil
        surface.record.currentBuffer = buffer?.id
        if let previous, previous !== buffer, previous.isHeld, configuration.bufferRelease == .whenReplaced {
            release(previous, noticed: "when \(surface.id) replaced it")
        }
        guard let buffer else { return }
        buffer.isHeld = true
        state.buffers[buffer.id]?.isHeld = true
        state.buffers[buffer.id]?.commitCount += 1
    }

    /// What follows every commit: immediate release, immediate frame callbacks, output enter.
    func afterCommit(_ surface: SurfaceObject, attachment: Attachment) {
        if case .buffer = attachment, configuration.bufferRelease == .immediate, let buffer = surface.buffer {
            release(buffer, noticed: "at its immediate release")
        }
        if configuration.frameCallbacks == .immediate { sendFrameCallbacks() }
        if case .buffer = attachment, configuration.enterOutputOnFirstBuffer, !surface.record.isOnOutput {
            enterOutput(surface)
        }
    }

    /// Forgets a destroyed surface: focus, role, and (unless buffers are held) its buffer.
    func surfaceDestroyed(_ surface: SurfaceObject) {
        if let buffer = surface.buffer, buffer.isHeld, configuration.bufferRelease != .hold {
            release(buffer, noticed: "when \(surface.id) was destroyed")
        }
        surface.buffer = nil
        surfaces[surface.id] = nil
        seat.forget(surface.id)
    }
}
