// Proof that a stopped compositor leaves no file descriptor behind. Each descriptor the compositor
// opens is booked here; at shutdown the ledger checks, against the kernel's own list in
// /proc/self/fd, that none of them (nor libwayland's duplicates of them) is still open.
import Glibc

struct DescriptorLedger {
    /// What `/proc/self/fd/N` points to, e.g. `socket:[81234]` or `pipe:[81240]`. Sockets, pipes
    /// and named memfds have targets unique to them, so a target still present after shutdown is a
    /// leak even when the descriptor number was reused.
    typealias Link = String

    var listeningSocket: Link?
    private var owned: [Int32: String] = [:]
    private var mustBeGone: Set<Link> = []

    static func link(of fd: Int32) -> Link? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Books a descriptor the compositor must close itself.
    mutating func opened(_ fd: Int32, _ what: String) {
        owned[fd] = what
    }

    /// Closes a booked descriptor and remembers its target when that is unique.
    mutating func close(_ fd: Int32) {
        guard owned.removeValue(forKey: fd) != nil else { return }
        expectClosed(Self.link(of: fd))
        _ = Glibc.close(fd)
    }

    /// Remembers a target that must be gone at shutdown (closed by libwayland or by the kernel).
    mutating func expectClosed(_ link: Link?) {
        guard let link, link.hasPrefix("socket:") || link.hasPrefix("pipe:") || link.hasPrefix("/memfd:") else { return }
        mustBeGone.insert(link)
    }

    /// Problems found: descriptors never closed, and targets still open somewhere in the process.
    func leftOpen() -> [String] {
        var problems = owned.map { "descriptor \($0.key) (\($0.value)) was never closed" }
        let stillThere = Self.openTargets().intersection(mustBeGone)
        problems += stillThere.sorted().map { "\($0) is still open after shutdown" }
        return problems
    }

    /// The targets of every descriptor open in this process now.
    static func openTargets() -> Set<Link> {
        guard let dir = opendir("/proc/self/fd") else { return [] }
        defer { closedir(dir) }
        var targets: Set<Link> = []
        while let entry = readdir(dir) {
            let name = directoryEntryName(entry)
            if let fd = Int32(name), let link = link(of: fd) { targets.insert(link) }
        }
        return targets
    }
}
