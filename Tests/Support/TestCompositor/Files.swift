import Glibc

/// The bytes of a file (empty when it does not exist), read through a close-on-exec descriptor
/// until read(2) returns 0. Files under /proc come a page per read(2): a reader that stops at the
/// first short read (Foundation's `String(contentsOfFile:)` does) sees only the first page.
public func readFile(_ path: String) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n > 0 { bytes += chunk[0..<n] } else if n < 0 && errno == EINTR { continue } else { return bytes }
    }
}
