// Receiving UDP: a non-blocking socket bound to a local address (`--osc-listen`).
internal import Glibc

/// A non-blocking, close-on-exec UDP socket bound to a local address, read one datagram at a time.
public struct UDPReceiver: ~Copyable {
    /// The socket.
    public let file: FileDescriptor

    /// The receive buffer asked for (the kernel caps it at `net.core.rmem_max`): room for a burst
    /// of several thousand small datagrams while the loop is busy, instead of the default few
    /// hundred, so that the newest one of a burst is not the one dropped.
    public static let receiveBufferBytes: Int32 = 4 << 20

    /// Opens the socket and binds it to `address`. Without SO_REUSEADDR: for UDP it would let a
    /// second program bind the same port without an error and take the datagrams meant for the
    /// first (and UDP has no TIME_WAIT for it to spare a restart), so a port in use is EADDRINUSE.
    public init(boundTo address: SocketAddress) throws(Errno) {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { throw Errno.current }
        let file = FileDescriptor(owning: fd)
        var size = Self.receiveBufferBytes
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var copy = address.storage
        let bound = withUnsafePointer(to: &copy) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, address.length) }
        }
        guard bound == 0 else { throw Errno.current }
        self.file = file
    }

    /// The socket's descriptor (poll it for POLLIN).
    public var descriptor: Descriptor { file.descriptor }

    /// Reads one datagram into `buffer`: its length (cut to the buffer; `truncated` says so) and
    /// the sender's address (`numericText` when it is to be named: formatting it costs more than
    /// reading the datagram); nil when none is waiting.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> (length: Int, truncated: Bool, sender: SocketAddress)? {
        var sender = SocketAddress()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = retryingInterrupts {
            withUnsafeMutablePointer(to: &sender.storage) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(file.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC), $0, &length)
                }
            }
        }
        switch result {
        case .success(let count):
            sender.length = length
            return (Swift.min(count, buffer.count), count > buffer.count, sender)
        case .failure(.wouldBlock):
            return nil
        case .failure(let error):
            throw error
        }
    }
}
