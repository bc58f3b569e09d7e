#if canImport(Glibc)
import Glibc
#endif

/// One line on stderr, prefixed with the program's name. Written with write(2): Swift 6 rejects
/// the C `stderr` global, and nothing here needs buffering.
func report(_ message: String) {
    var line = "wlslider: " + message + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
