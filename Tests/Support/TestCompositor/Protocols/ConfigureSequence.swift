// The configure/ack handshake shared by xdg_surface and zwlr_layer_surface_v1: the compositor
// sends serials, the client acknowledges one before the commit that answers it, and may not show
// a buffer before its first acknowledgement.

struct ConfigureSequence {
    private(set) var sent: [UInt32] = []
    private(set) var lastAcked: UInt32?
    /// Whether the first configure of the current mapping was sent (reset on unmap).
    var initialSent = false
    /// Whether the client acknowledged a configure since it was last unmapped.
    private(set) var acknowledged = false

    mutating func didSend(_ serial: UInt32) {
        sent.append(serial)
        initialSent = true
    }

    /// Records an ack; false when the serial was never sent (a protocol error).
    mutating func ack(_ serial: UInt32) -> Bool {
        guard let index = sent.firstIndex(of: serial) else { return false }
        // Acknowledging a serial acknowledges every earlier one too.
        sent.removeFirst(index + 1)
        lastAcked = serial
        acknowledged = true
        return true
    }

    /// After a null buffer is committed, the client starts over with an initial commit.
    mutating func unmapped() {
        initialSent = false
        acknowledged = false
    }
}
