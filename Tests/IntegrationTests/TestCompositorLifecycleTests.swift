// Starting, waiting, disconnecting and stopping: every wait has a timeout that explains itself,
// and a stopped compositor leaves nothing behind.
import CWaylandClient
import Glibc
import Testing
import TestCompositor

@Suite("Test compositor: lifecycle")
struct TestCompositorLifecycleTests {
    @Test("the runtime directory is private and holds the socket; stop removes it and leaves nothing open")
    func cleanShutdown() async throws {
        let compositor = try TestCompositor()
        var info = stat()
        #expect(stat(compositor.runtimeDirectory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(access(compositor.socketPath, F_OK) == 0)
        #expect(compositor.environment == ["WAYLAND_DISPLAY": compositor.socketName, "XDG_RUNTIME_DIR": compositor.runtimeDirectory])
        let client = try RawWaylandClient(socketPath: compositor.socketPath)
        let process = try compositor.launch("weston-simple-shm")
        _ = try await compositor.waitForSurface(role: .toplevel)
        #expect(compositor.stop() == [], "no thread, descriptor or directory left behind")
        #expect(access(compositor.runtimeDirectory, F_OK) != 0)
        #expect(compositor.state.processes[process]?.exitStatus != nil, "the child was stopped and reaped")
        #expect(!client.roundtripSucceeds, "the in-process client was disconnected")
        #expect(throws: TestCompositorError.self) { try compositor.advanceClock(by: 1) }
        #expect(compositor.stop() == [], "stop is idempotent")
    }

    @Test("an impossible global version is refused at start, naming the versions offered")
    func invalidConfiguration() {
        var configuration = Configuration()
        configuration.globals[.compositor] = 6
        let error = #expect(throws: TestCompositorError.self) { _ = try TestCompositor(configuration) }
        #expect(error?.description == "test compositor: wl_compositor version 6 is not offered (1...5)")
    }

    @Test("two compositors run side by side on their own sockets")
    func parallelCompositors() async throws {
        try await withTestCompositor { first in
            try await withTestCompositor { second in
                #expect(first.socketPath != second.socketPath)
                let client = try RawWaylandClient(socketPath: second.socketPath)
                try client.roundtrip()
                #expect(first.state.clients.isEmpty)
                #expect(second.state.clients.count == 1)
            }
        }
    }

    @Test("a wait that times out says what it waited for and what the compositor saw")
    func timeoutExplainsItself() async throws {
        try await withTestCompositor { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            try client.roundtrip()
            let start = ContinuousClock.now
            let error = await #expect(throws: TestCompositorError.self) {
                try await compositor.waitUntil("a toplevel that never comes", timeout: .milliseconds(100)) { !$0.surfaces.isEmpty }
            }
            let elapsed = start.duration(to: .now)
            #expect(elapsed >= .milliseconds(100), "it did wait the timeout out")
            let text = error?.description ?? ""
            #expect(text.contains("timed out after 0.1 seconds waiting for a toplevel that never comes"))
            #expect(text.contains("client 1 pid \(getpid()) connected"))
            #expect(text.contains("client 1 <- wl_registry@2.global(10, \"zxdg_decoration_manager_v1\", 1)"), "the transcript's tail")
        }
    }

    @Test("a cancelled wait ends at once with CancellationError")
    func cancelledWait() async throws {
        try await withTestCompositor { compositor in
            let task = Task { try await compositor.waitUntil("never", timeout: .seconds(30)) { _ in false } }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    @Test("the test can disconnect a client, and sees when a client goes away by itself")
    func disconnects() async throws {
        try await withTestCompositor { compositor in
            let client = try RawWaylandClient(socketPath: compositor.socketPath)
            try client.roundtrip()
            let id = try await compositor.waitForClient()
            try compositor.disconnect(id)
            try await compositor.waitForDisconnect(id)
            #expect(!client.roundtripSucceeds)
            #expect(throws: TestCompositorError.self) { try compositor.disconnect(id) }

            let process = try compositor.launch("weston-simple-shm")
            let pid = try #require(compositor.state.processes[process]?.pid)
            let child = try await compositor.waitForClient(pid: pid)
            try compositor.signal(process, SIGKILL)
            try await compositor.waitForDisconnect(child)
            #expect(try await compositor.waitForExit(process) == .signaled(SIGKILL))
        }
    }

    @Test("a launched process's output is captured, and a missing executable is a clear error")
    func processes() async throws {
        try await withTestCompositor { compositor in
            let process = try compositor.launch("sh", arguments: ["-c", "echo \"$WAYLAND_DISPLAY $EXTRA\"; echo oops >&2; read never; exit 3"], environment: ["EXTRA": "x"])
            #expect(try await compositor.waitForOutputLines(of: process, count: 1) == ["\(compositor.socketName) x"])
            #expect(try await compositor.waitForExit(process) == .exited(3), "read gets end of file: stdin is /dev/null")
            let state = try #require(compositor.state.processes[process])
            #expect(state.standardOutputLines == ["\(compositor.socketName) x"])
            #expect(state.standardError == "oops\n")
            let error = #expect(throws: TestCompositorError.self) { try compositor.launch("/nonexistent/wlslider-test-binary") }
            #expect(error?.description.contains("No such file or directory") == true)
        }
    }

    @Test("output from a process the launched one left behind is captured after it exited, and stop closes the pipes that process still holds")
    func leftBehindProcess() async throws {
        let compositor = try TestCompositor()
        // The background job keeps the child's stdout and stderr; `exec` gives the sleep its pid.
        let process = try compositor.launch("sh", arguments: ["-c", "(sleep 0.3; echo late-err >&2; echo late; exec sleep 600) & echo $!"])
        let pidLine = try #require(try await compositor.waitForOutputLines(of: process, count: 1).first)
        let leftBehind = try #require(pid_t(pidLine))
        defer { kill(leftBehind, SIGKILL) }
        #expect(try await compositor.waitForExit(process) == .exited(0))
        // Reaped before the job wrote: its pipes are still read.
        #expect(try await compositor.waitForOutputLines(of: process, count: 2) == [pidLine, "late"])
        #expect(kill(leftBehind, 0) == 0, "the left-behind process still holds the pipes")
        #expect(compositor.stop() == [], "no descriptor left open, though the pipes' writer still runs")
    }

    @Test("a process launched with a stdin pipe reads what the test writes, and end of file when it closes it")
    func standardInputPipe() async throws {
        try await withTestCompositor { compositor in
            let process = try compositor.launch("sh", arguments: ["-c", "while read line; do echo \"got $line\"; done; echo eof"], standardInput: true)
            try compositor.writeStandardInput(process, "one\ntwo\n")
            #expect(try await compositor.waitForOutputLines(of: process, count: 2) == ["got one", "got two"])
            try compositor.closeStandardInput(process)
            #expect(try await compositor.waitForExit(process) == .exited(0))
            #expect(compositor.state.processes[process]?.standardOutputLines == ["got one", "got two", "eof"])
            let error = #expect(throws: TestCompositorError.self) { try compositor.writeStandardInput(process, "late\n") }
            #expect(error?.description.contains("has no open stdin pipe") == true)
        }
    }
}
