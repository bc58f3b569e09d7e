// Runs commands against a backend while staying connected: every wait polls the display so the
// compositor is answered, and the process lives until stdin ends (KWin gives its seat touch and
// pointer only while a fake-input client is connected).
import Glibc

/// Writes a line to a file descriptor (Swift 6 rejects the C `stdout`/`stderr` globals).
func writeLine(_ text: String, to fd: Int32) {
    var bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}

/// The command interpreter: one backend, the last known positions (for glides).
final class Injector {
    private let display: Display
    private let backend: InputBackend
    private var pointer = GlobalPoint(x: 0, y: 0)
    private var fingers: [UInt32: GlobalPoint] = [:]

    init(display: Display, backend: InputBackend) {
        self.display = display
        self.backend = backend
    }

    /// Executes one command and sends it.
    func run(_ command: Command) throws(InjectorError) {
        switch command {
        case .pointerMove(let p): try movePointer(to: p)
        case .pointerButton(let pressed): try backend.pointerButton(pressed: pressed)
        case .pointerGlide(let target, let ms, let steps): try glidePointer(to: target, milliseconds: ms, steps: steps)
        case .wheel(let detents): try backend.wheel(detents: detents)
        case .touchDown(let id, let p): fingers[id] = p; try backend.touchDown(id: id, at: p)
        case .touchMove(let id, let p): try moveFinger(id, to: p)
        case .touchGlide(let id, let target, let ms, let steps): try glideFinger(id, to: target, milliseconds: ms, steps: steps)
        case .touchUp(let id): fingers[id] = nil; try backend.touchUp(id: id)
        case .touchCancel: fingers.removeAll(); try backend.touchCancel()
        case .touchFrame: try backend.touchFrame()
        case .sleep(let ms): try wait(milliseconds: ms)
        case .sync: try display.roundtrip()
        case .echo(let text): try display.flush(); writeLine(text, to: 1)
        }
        try display.flush()
    }

    private func movePointer(to p: GlobalPoint) throws(InjectorError) {
        try backend.pointerMove(to: p)
        pointer = p
    }

    private func moveFinger(_ id: UInt32, to p: GlobalPoint) throws(InjectorError) {
        guard fingers[id] != nil else { throw InjectorError("touch move \(id): finger \(id) is not down") }
        fingers[id] = p
        try backend.touchMove(id: id, to: p)
    }

    private func glidePointer(to target: GlobalPoint, milliseconds: Int, steps: Int) throws(InjectorError) {
        let start = pointer
        for step in 1...steps {
            try wait(milliseconds: milliseconds * step / steps - milliseconds * (step - 1) / steps)
            try movePointer(to: Self.lerp(start, target, Double(step) / Double(steps)))
            try display.flush()
        }
    }

    private func glideFinger(_ id: UInt32, to target: GlobalPoint, milliseconds: Int, steps: Int) throws(InjectorError) {
        guard let start = fingers[id] else { throw InjectorError("touch glide \(id): finger \(id) is not down") }
        for step in 1...steps {
            try wait(milliseconds: milliseconds * step / steps - milliseconds * (step - 1) / steps)
            try moveFinger(id, to: Self.lerp(start, target, Double(step) / Double(steps)))
            try backend.touchFrame()
            try display.flush()
        }
    }

    private static func lerp(_ a: GlobalPoint, _ b: GlobalPoint, _ t: Double) -> GlobalPoint {
        GlobalPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    /// Waits `milliseconds`, dispatching whatever the compositor sends meanwhile.
    func wait(milliseconds: Int) throws(InjectorError) {
        let deadline = monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000
        try display.flush()
        while true {
            let now = monotonicNanoseconds()
            guard now < deadline else { return }
            var fds = [pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0)]
            let timeout = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            let n = poll(&fds, 1, timeout)
            if n < 0 && errno != EINTR { throw InjectorError("poll: \(String(cString: strerror(errno)))") }
            if n > 0 { try display.dispatch() }
        }
    }
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Lines from stdin, read with `poll` alongside the display so the compositor is always answered.
struct StdinLines {
    private var pending: [UInt8] = []
    private var ended = false

    /// The next line without its newline, or nil at end of input.
    mutating func next(display: Display) throws(InjectorError) -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            try waitForInput(display: display)
        }
    }

    private mutating func waitForInput(display: Display) throws(InjectorError) {
        try display.flush()
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { throw InjectorError("poll: \(String(cString: strerror(errno)))") }
        if fds[1].revents != 0 { try display.dispatch() }
        guard fds[0].revents != 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 && errno != EINTR && errno != EAGAIN { throw InjectorError("reading stdin: \(String(cString: strerror(errno)))") }
        if n == 0 { ended = true }
        if n > 0 { pending += chunk[..<n] }
    }
}
