// The thread that owns the compositor. libwayland-server is not thread-safe, so every server
// object lives on this one thread; tests talk to it through a mailbox of jobs, and every answer
// comes back as a value copy. A test's view is therefore always a consistent snapshot taken
// between two dispatches, which is what makes the compositor deterministic to use from async tests.
internal import CWaylandServer
import Dispatch
import Glibc
import Synchronization

/// Work for the server thread. It runs between two event-loop dispatches, with exclusive access.
typealias Job = @Sendable (Server) -> Void

final class ServerThread: @unchecked Sendable {
    // @unchecked: `mailbox` is a Mutex; the other stored properties are written once, before the
    // thread starts or after it was joined, and read under the ordering that start/join give.
    private struct Mailbox {
        var jobs: [Job] = []
        var stopping = false
    }
    private let mailbox = Mutex(Mailbox())
    private let finalState = Mutex<CompositorState?>(nil)
    private let cleanupProblems = Mutex<[String]>([])
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var thread: pthread_t?
    private let threadID = Mutex<pid_t>(0)

    private init(wake: (Int32, Int32)) {
        (wakeRead, wakeWrite) = wake
    }

    /// Starts the thread and builds the server on it; returns once the socket accepts clients.
    static func start(_ configuration: Configuration, instance: Int) throws -> (ServerThread, ServerAddress) {
        var fds: [Int32] = [0, 0]
        guard wlslider_pipe_cloexec(&fds) == 0 else { throw TestCompositorError.system("pipe2 for the wake-up pipe") }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let thread = ServerThread(wake: (fds[0], fds[1]))
        let wakeRead = fds[0]
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<ServerAddress, TestCompositorError>?>(nil)
        let body: @Sendable () -> Void = {
            thread.threadID.withLock { $0 = wlslider_gettid() }
            do {
                let server = try Server(configuration, thread: thread, instance: instance, wakeFD: wakeRead)
                outcome.withLock { $0 = .success(server.address) }
                started.signal()
                server.run()
            } catch {
                outcome.withLock { $0 = .failure(error as? TestCompositorError ?? TestCompositorError("\(error)")) }
                started.signal()
            }
        }
        thread.thread = try spawnThread(body)
        started.wait()
        switch outcome.withLock({ $0 })! {
        case .success(let address):
            return (thread, address)
        case .failure(let error):
            _ = thread.stop()
            throw error
        }
    }

    /// Queues `job`; false when the compositor is stopping and will run no more jobs.
    @discardableResult
    func enqueue(_ job: @escaping Job) -> Bool {
        let accepted = mailbox.withLock { box in
            guard !box.stopping else { return false }
            box.jobs.append(job)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    /// Runs `body` on the server thread and returns its result; throws ``TestCompositorError/stopped``
    /// when the compositor was stopped.
    func perform<T: Sendable>(_ body: @escaping @Sendable (Server) throws -> T) throws -> T {
        precondition(threadID.withLock { $0 } != wlslider_gettid(), "test compositor: called from its own thread (inside a waitUntil predicate?)")
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let accepted = enqueue { server in
            let r = Result { try body(server) }
            server.flush()
            result.withLock { $0 = r }
            done.signal()
        }
        guard accepted else { throw TestCompositorError.stopped }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Called by the server loop: the jobs queued so far, and whether it must stop after them.
    func takeJobs() -> (jobs: [Job], stopping: Bool) {
        var token: UInt8 = 0
        while read(wakeRead, &token, 1) > 0 {}
        return mailbox.withLock { box in
            defer { box.jobs.removeAll() }
            return (box.jobs, box.stopping)
        }
    }

    /// Asks the loop to stop after the jobs already queued, waits for it, and returns what the
    /// shutdown found left behind. Idempotent.
    func stop() -> [String] {
        let first = mailbox.withLock { box in
            defer { box.stopping = true }
            return !box.stopping
        }
        if first {
            wake()
            join()
            // Closed only after the join: a wake() racing with the loop's exit must find a reader.
            close(wakeRead)
            close(wakeWrite)
            cleanupProblems.withLock { $0 += checkThreadGone() }
        }
        return cleanupProblems.withLock { $0 }
    }

    /// Set by the server as its last act: the state to answer with after the stop.
    func finish(state: CompositorState, problems: [String]) {
        finalState.withLock { $0 = state }
        cleanupProblems.withLock { $0 = problems }
    }

    var stateAfterStop: CompositorState? { finalState.withLock { $0 } }
    var isStopping: Bool { mailbox.withLock { $0.stopping } }

    private func wake() {
        var token: UInt8 = 1
        _ = write(wakeWrite, &token, 1)  // EAGAIN when the pipe is full: a wake-up is pending anyway
    }

    private func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }

    private func checkThreadGone() -> [String] {
        let tid = threadID.withLock { $0 }
        guard tid != 0 else { return [] }
        // pthread_join returns when the thread cleared its tid, a moment before the kernel removes
        // the task: give the kernel up to a second.
        for _ in 0..<1000 {
            if access("/proc/self/task/\(tid)", F_OK) != 0 { return [] }
            usleep(1000)
        }
        return ["server thread \(tid) still exists a second after join"]
    }
}

/// Where clients find the compositor.
struct ServerAddress: Sendable {
    let runtimeDirectory: String
    let socketName: String
    var socketPath: String { runtimeDirectory + "/" + socketName }
}

/// Starts a joinable pthread running `body`.
private func spawnThread(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
    final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { context in
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    guard rc == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        throw TestCompositorError.system("pthread_create for the server thread", rc)
    }
    return thread
}
