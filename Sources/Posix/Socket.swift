// UDP: resolving a destination, a connected non-blocking socket, sending, and reading the error a
// refused datagram leaves on it.
internal import Glibc

/// A resolved socket address, stored by value so it outlives getaddrinfo's list.
public struct SocketAddress: Sendable {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 { Int32(storage.ss_family) }

    /// Resolves `host`/`port` for UDP (getaddrinfo: may block briefly for a name; do it at start).
    /// The error is getaddrinfo's message.
    public static func resolveUDP(host: String, port: UInt16) -> Result<SocketAddress, ResolveFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(ResolveFailure(message: status == EAI_SYSTEM ? Errno.current.message : String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var address = SocketAddress()
        address.length = Swift.min(first.pointee.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
        withUnsafeMutableBytes(of: &address.storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(address.length)))
        }
        return .success(address)
    }

    /// The numeric text: `127.0.0.1:57120` or `[::1]:57120`.
    public var numericText: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        var copy = storage
        let status = withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                            NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return "?" }
        let hostText = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let serviceText = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(hostText)]:\(serviceText)" : "\(hostText):\(serviceText)"
    }
}

/// getaddrinfo's failure message.
public struct ResolveFailure: Error, Sendable {
    /// The message, e.g. "Name or service not known".
    public let message: String
}

/// A non-blocking, close-on-exec UDP socket connected to one address. Connecting lets the kernel
/// report an ICMP "port unreachable" for an earlier datagram as ECONNREFUSED: on the next send, or
/// as a pending socket error that makes poll report POLLERR until `takePendingError()` reads it.
public struct UDPSocket: ~Copyable {
    /// The socket.
    public let file: FileDescriptor

    /// Opens and connects the socket.
    public init(connectedTo address: SocketAddress) throws(Errno) {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { throw Errno.current }
        let file = FileDescriptor(owning: fd)
        var copy = address.storage
        let connected = retryingInterrupts {
            withUnsafePointer(to: &copy) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
            }
        }
        if case .failure(let error) = connected { throw error }
        self.file = file
    }

    /// The socket's descriptor (poll it).
    public var descriptor: Descriptor { file.descriptor }

    /// Sends one datagram (whole or not at all): `Errno.wouldBlock` when the socket buffer is full.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        _ = try file.descriptor.sendNonBlocking(bytes)
    }

    /// Reads and clears the socket's pending error (SO_ERROR): nil when there is none. This is what
    /// ends a POLLERR the kernel keeps reporting after an ICMP error.
    public func takePendingError() -> Errno? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(file.rawValue, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return Errno.current }
        return code == 0 ? nil : Errno(code)
    }
}
