// An anonymous in-memory file, for clients in the tests' own process that need shm pools
// (Swift's Glibc does not show memfd_create; the compositor's shim does).
internal import CWaylandServer

/// A new close-on-exec memfd called `name`, or -1 with `errno` set. The caller closes it.
public func anonymousMemoryFile(named name: String) -> Int32 {
    wlslider_server_memfd_create(name)
}
