import Posix

/// `--audio-out PATH|-` with `--rate N`: the presented value as a control signal at audio rate,
/// raw f32le mono (`sox -t f32 -r 48000 -c 1 FILE …`, `pw-cat --playback --format f32 --rate 48000 --channels 1 -`).
///
/// Real time, not ahead: the app calls `write(upTo: now)` from a periodic timer and the writer emits
/// exactly the samples whose times lie in [last written, now), each sampled from the
/// value source for its own time (`startTime + index / rate`, from an integer sample index, so nothing
/// drifts however irregular the timer is). The content is therefore exact to the sample; what the
/// timer period P changes is only delivery: a value change reaches the reader at most P later,
/// at the cost of 1/P wake-ups per second. P = 5–10 ms is the sensible range (10 ms → 100 wake-ups/s,
/// 480 samples = 1.9 KB per write at 48 kHz). A rate consumer needs samples even while the value
/// stands still, so the timer runs for as long as the stream is open: `--audio-out` gives up the
/// zero-wake-ups-while-idle goal of the plain stdout sink.
///
/// Slow reader: samples are produced in blocks of at most `blockFrames` (1024 frames = 4096 bytes =
/// PIPE_BUF, so a pipe write is all-or-nothing). When the reader stops taking data (EAGAIN), the
/// block waits and no new one is produced. Once the reader is more than `maxLag` seconds behind real
/// time, the writer skips ahead to now (dropping the backlog rather than buffering it: a control
/// signal that lags behind the slider is worse than one with a gap) and warns once; `framesSkipped`
/// counts it. A late timer on the app's side (no EAGAIN) never skips: the backlog is written at once.
///
/// No allocation after `init`: one preallocated block is filled and written again and again.
///
/// The end: a reader that leaves (EPIPE, POLLERR/POLLHUP) ends the stream with `.readerClosed`;
/// another write error (ENOSPC on a full disk, EIO) with `.failed` once, then `.readerClosed`.
public final class AudioRateWriter {

    /// Where the samples go.
    public enum Destination: Equatable, Sendable {
        /// A file, created or truncated (a FIFO must already have a reader).
        case path(String)
        /// fd 1 (`--audio-out -`); then stdout carries no value lines.
        case standardOutput
        /// An already open descriptor, not owned (tests, or a pipe the app made).
        case fileDescriptor(Int32)

        /// `-` means stdout, anything else is a path.
        public static func parse(_ text: String) throws(OutputOptionError) -> Destination {
            guard !text.isEmpty else { throw OutputOptionError("--audio-out: needs a file path or - for stdout") }
            return text == "-" ? .standardOutput : .path(text)
        }
    }

    /// The accepted `--rate` range.
    public static let rates = 1000...384_000

    /// Parses `--rate N` (samples per second).
    public static func parseRate(_ text: String) throws(OutputOptionError) -> Int {
        guard let rate = Int(text), rates.contains(rate) else {
            throw OutputOptionError("--rate: \"\(text)\" is not a sample rate from \(rates.lowerBound) to \(rates.upperBound) Hz, e.g. 48000")
        }
        return rate
    }

    private let output: PrivateOutput
    /// Samples per second.
    public let sampleRate: Int
    /// The monotonic time of sample 0.
    public let startTime: Double
    /// Frames per block (and per write call at most).
    public let blockFrames: Int
    /// How far behind real time a slow reader may fall before the writer skips ahead.
    public let maxLag: Double
    /// Frames handed to the kernel so far.
    public var framesWritten: Int64 { bytesWritten / Int64(MemoryLayout<Float>.size) }
    /// Frames dropped because the reader fell more than `maxLag` behind.
    public private(set) var framesSkipped: Int64 = 0

    private let source: any ValueSource
    private let mapping: OutputMapping
    private let block: UnsafeMutableBufferPointer<Float>
    private var framesProduced: Int64 = 0
    private var bytesWritten: Int64 = 0
    private var pending = 0..<0
    private var readerClosed = false
    private var warnings = WarningLog()

    /// Opens the destination and prepares the one block buffer. `startTime` is the app's monotonic
    /// time for sample 0 (normally "now" when the option is applied).
    /// Samples come from `source` and go through `mapping` (`--scale-output`, `--output-curve`).
    public init(destination: Destination, sampleRate: Int = 48_000, startTime: Double, blockFrames: Int = 1024,
                maxLag: Double = 0.2, mapping: OutputMapping = .identity, source: any ValueSource) throws(SinkSetupError) {
        output = try Self.open(destination)
        self.sampleRate = sampleRate
        self.startTime = startTime
        self.blockFrames = Swift.max(blockFrames, 1)
        self.maxLag = maxLag
        self.source = source
        self.mapping = mapping
        block = .allocate(capacity: self.blockFrames)
        block.initialize(repeating: 0)
    }

    deinit {
        block.deallocate()
    }

    /// The descriptor to poll: for POLLOUT while `wantsWritable`, and always for POLLERR/POLLHUP.
    public var pollDescriptor: Descriptor? { readerClosed ? nil : output.pollDescriptor }

    /// True while a block waits for the reader: add POLLOUT to the poll set.
    public var wantsWritable: Bool { !readerClosed && !pending.isEmpty }

    /// Resolves what poll reported: POLLERR or POLLHUP means the reader is gone; otherwise it
    /// writes what is due up to `now`.
    public func handle(_ events: PollEvents, now: Double) -> WriteStatus {
        if !readerClosed && !events.isDisjoint(with: [.error, .hangup, .invalid]) {
            readerClosed = true
        }
        return write(upTo: now)
    }

    /// Writes every sample due up to `now` (monotonic seconds), as far as the reader takes them.
    public func write(upTo now: Double) -> WriteStatus {
        write(upTo: now, skippingAhead: true)
    }

    private func write(upTo now: Double, skippingAhead: Bool) -> WriteStatus {
        if readerClosed { return .readerClosed }
        let due = dueFrames(at: now)
        var status = drainPending()
        while status == .delivered && framesProduced < due {
            produceBlock(frames: Int(Swift.min(Int64(blockFrames), due - framesProduced)))
            status = drainPending()
        }
        if status == .waitingForWritable && skippingAhead { skipAheadIfLagging(due: due) }
        return status
    }

    /// The shutdown path (SIGTERM, quit, close): writes every sample up to and including the first
    /// one at or after `now`, waiting up to `timeoutMilliseconds` in all for a slow reader. Call it
    /// after the engine jumped to its target at `now`: the stream then ends on the target, however
    /// far the glide had come. Afterwards the writer is closed: `write(upTo:)` writes nothing and
    /// returns `.readerClosed`.
    public func finish(at now: Double, timeoutMilliseconds: Int32 = 500) -> WriteStatus {
        // At least one sample after every one written so far, so the stream ends on the settled
        // value even when samples already reached past `now`.
        let produced = startTime + Double(framesProduced) / Double(sampleRate)
        let end = max(now, produced) + 1 / Double(sampleRate)
        let deadline = MonotonicInstant.now().advanced(byMilliseconds: Double(timeoutMilliseconds))
        var status = write(upTo: end, skippingAhead: false)
        while status == .waitingForWritable {
            let left = EventLoop.pollTimeout(now: .now(), deadline: deadline)
            guard left > 0, output.waitUntilWritable(timeoutMilliseconds: left) else { break }
            status = write(upTo: end, skippingAhead: false)
        }
        readerClosed = true
        return status
    }

    /// Warnings (one line each) since the last call; print them on stderr.
    public func takeWarnings() -> [String] { warnings.take() }
    /// Whether `takeWarnings` has any to hand over (a cheap look, once a frame).
    public var hasWarnings: Bool { warnings.hasQueued }

    private func dueFrames(at now: Double) -> Int64 {
        let frames = ((now - startTime) * Double(sampleRate)).rounded(.down)
        guard frames > 0 else { return 0 }
        return frames < 9e18 ? Int64(frames) : Int64.max
    }

    private func produceBlock(frames: Int) {
        let samples = UnsafeMutableBufferPointer(rebasing: block[0..<frames])
        var span = samples.mutableSpan
        source.fill(&span, from: startTime + Double(framesProduced) / Double(sampleRate), sampleRate: Double(sampleRate))
        mapping.apply(to: &span, range: source.range)
        #if _endian(big)
        for index in samples.indices { samples[index] = Float(bitPattern: samples[index].bitPattern.littleEndian) }
        #endif
        framesProduced += Int64(frames)
        pending = 0..<(frames * MemoryLayout<Float>.size)
    }

    private func drainPending() -> WriteStatus {
        while !pending.isEmpty {
            let bytes = UnsafeRawBufferPointer(block)[pending]
            do throws(Errno) {
                let written = try output.write(UnsafeRawBufferPointer(rebasing: bytes))
                pending = (pending.lowerBound + written)..<pending.upperBound
                bytesWritten += Int64(written)
            } catch .wouldBlock {
                return .waitingForWritable
            } catch .brokenPipe {
                readerClosed = true
                return .readerClosed
            } catch {
                readerClosed = true
                return .failed(error.error("--audio-out: write to \(output.original)"))
            }
        }
        return .delivered
    }

    private func skipAheadIfLagging(due: Int64) {
        let lag = due - framesProduced
        guard Double(lag) > maxLag * Double(sampleRate) else { return }
        framesSkipped += lag
        framesProduced = due
        warnings.once(key: "lag", "audio-out: the reader fell more than \(Int(maxLag * 1000)) ms behind; skipped \(lag) samples to stay in real time (reported once)")
    }

    private static func open(_ destination: Destination) throws(SinkSetupError) -> PrivateOutput {
        switch destination {
        case .path(let path):
            // The value lines go to stdout: samples written into the same file, pipe or socket
            // would be mixed into them (a device such as /dev/null takes both harmlessly). Checked
            // before opening, which would truncate the file.
            if let file = FileIdentity(path: path), file.kind != .characterDevice,
               let standardOutput = try? Descriptor.standardOutput.identity(), file == standardOutput {
                throw SinkSetupError("--audio-out: \"\(path)\" is stdout, where the value lines go; "
                                     + "use --audio-out - to write the samples there instead of the lines")
            }
            do throws(Errno) {
                return PrivateOutput(owning: try FileDescriptor.createForWriting(path))
            } catch {
                let hint = error == .noReader ? "; start the reader of the FIFO first" : ""
                throw SinkSetupError("--audio-out: " + error.error("open \"\(path)\" for writing").description + hint)
            }
        case .standardOutput:
            guard !Descriptor.standardOutput.isTerminal else {
                throw SinkSetupError("--audio-out -: stdout is a terminal; redirect it to a file or pipe it into a reader such as sox")
            }
            return PrivateOutput(.standardOutput)
        case .fileDescriptor(let fd):
            return PrivateOutput(Descriptor(fd))
        }
    }
}
