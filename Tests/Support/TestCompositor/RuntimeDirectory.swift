// The private XDG_RUNTIME_DIR and the listening socket inside it. libwayland-client refuses a
// runtime directory others can enter, and a name unique per compositor lets tests run in parallel.
internal import CWaylandServer
import Glibc

/// Creates a private runtime directory (mode 0700, from mkdtemp) with a listening socket in it,
/// and hands the socket to the display.
func openListeningSocket(_ display: OpaquePointer, instance: Int, ledger: inout DescriptorLedger) throws -> ServerAddress {
    var template = Array("/tmp/wlslider-compositor-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw TestCompositorError.system("mkdtemp for the runtime directory") }
    let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let address = ServerAddress(runtimeDirectory: directory, socketName: "wayland-test-\(instance)")
    do {
        let fd = try bindSocket(address.socketPath)
        ledger.listeningSocket = DescriptorLedger.link(of: fd)
        guard wl_display_add_socket_fd(display, fd) == 0 else {
            close(fd)
            throw TestCompositorError("test compositor: wl_display_add_socket_fd refused the socket")
        }
        return address
    } catch {
        _ = removeRuntimeDirectory(address)
        throw error
    }
}

private func bindSocket(_ path: String) throws -> Int32 {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: addr.sun_path)
    guard bytes.count < capacity else {
        throw TestCompositorError("test compositor: socket path \(path) is \(bytes.count) bytes, longer than sun_path (\(capacity - 1))")
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestCompositorError.system("socket(AF_UNIX)") }
    let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 128) == 0 else {
        let error = TestCompositorError.system("bind/listen on \(path)")
        close(fd)
        throw error
    }
    return fd
}

/// Deletes the runtime directory and whatever clients left in it; returns problems.
func removeRuntimeDirectory(_ address: ServerAddress) -> [String] {
    let dir = address.runtimeDirectory
    if let stream = opendir(dir) {
        while let entry = readdir(stream) {
            let name = directoryEntryName(entry)
            if name != "." && name != ".." { unlink(dir + "/" + name) }
        }
        closedir(stream)
    }
    guard rmdir(dir) == 0 || errno == ENOENT else {
        return ["runtime directory \(dir) not removed: \(String(cString: strerror(errno)))"]
    }
    return []
}

/// The name of a `readdir` entry, read where it lies. `d_name` is declared 256 bytes long, but a
/// record holds only as much of it as its name needs: copying the whole field (as
/// `withUnsafeBytes(of: entry.pointee.d_name)` does) can read past the end of the kernel's buffer
/// and fault.
public func directoryEntryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
    return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
}
