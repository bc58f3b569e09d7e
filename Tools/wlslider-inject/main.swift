// wlslider-inject: real input for wlslider's end-to-end tests under real compositors.
//
// One long-lived process per compositor: it connects, picks an input protocol from the globals
// (wlroots' virtual pointer for sway, KWin's fake input for KWin), then reads commands from stdin
// until it ends. Exit status: 0 at the end of input, 1 when the compositor or the system fails
// (message on stderr), 64 for a bad option or command line.
import Glibc

let usage = """
    usage: wlslider-inject [--backend auto|virtual-pointer|fake-input] [--extent WxH] [--settle MS]

    Reads commands from stdin, one per line, and injects them into the compositor at WAYLAND_DISPLAY.
    Coordinates are global (the output layout's logical pixels).

      --backend   auto (default) chooses KWin's fake input if offered, else wlroots' virtual pointer.
      --extent    the layout's logical size for the virtual pointer (default: from the outputs).
      --settle    milliseconds to wait after creating the device, so clients can bind the seat's
                  new pointer/touch before the first event (default 300).

    Commands:
    \(Command.summary)
    """

struct Options {
    enum Backend: String { case auto, virtualPointer = "virtual-pointer", fakeInput = "fake-input" }
    var backend = Backend.auto
    var extent: (width: Double, height: Double)?
    var settleMilliseconds = 300
}

/// Parses the command line; a message for a usage error.
func parseOptions(_ arguments: [String]) -> Result<Options, InjectorError> {
    var options = Options()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        if flag == "--help" || flag == "-h" { writeLine(usage, to: 1); exit(0) }
        guard let value = rest.popFirst() else { return .failure(InjectorError("\(flag) needs a value")) }
        switch flag {
        case "--backend":
            guard let b = Options.Backend(rawValue: value) else { return .failure(InjectorError("--backend '\(value)': expected auto, virtual-pointer or fake-input")) }
            options.backend = b
        case "--extent":
            let parts = value.split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return .failure(InjectorError("--extent '\(value)': expected WxH, e.g. 800x600")) }
            options.extent = (parts[0], parts[1])
        case "--settle":
            guard let ms = Int(value), (0...10_000).contains(ms) else { return .failure(InjectorError("--settle '\(value)': expected 0...10000 milliseconds")) }
            options.settleMilliseconds = ms
        default:
            return .failure(InjectorError("unknown option '\(flag)' (see --help)"))
        }
    }
    return .success(options)
}

/// The backend the options and the compositor's globals allow.
func makeBackend(_ options: Options, display: Display) throws(InjectorError) -> InputBackend {
    let fake = display.find("org_kde_kwin_fake_input"), virtual = display.find("zwlr_virtual_pointer_manager_v1")
    let wantFake = options.backend == .fakeInput || (options.backend == .auto && fake != nil)
    if wantFake {
        guard let fake else {
            throw InjectorError("org_kde_kwin_fake_input: not offered (KWin advertises it with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 or to a client named in a desktop file)")
        }
        return try FakeInputBackend(display: display, global: fake)
    }
    guard let virtual else {
        throw InjectorError(options.backend == .auto
            ? "no input injection global: the compositor offers neither zwlr_virtual_pointer_manager_v1 (wlroots) nor org_kde_kwin_fake_input (KWin)"
            : "zwlr_virtual_pointer_manager_v1: not offered by this compositor")
    }
    guard let extent = options.extent ?? display.layoutExtent else {
        throw InjectorError("the virtual pointer needs the layout size: no wl_output reported a mode (pass --extent WxH)")
    }
    return VirtualPointerBackend(display: display, global: virtual, extent: extent)
}

/// Connects, settles, then runs stdin's commands in order.
func runInjector(_ options: Options) throws(InjectorError) {
    let display = try Display()
    let backend = try makeBackend(options, display: display)
    let injector = Injector(display: display, backend: backend)
    try display.roundtrip()
    try injector.wait(milliseconds: options.settleMilliseconds)
    var lines = StdinLines()
    var number = 0
    while let line = try lines.next(display: display) {
        number += 1
        let command: Command?
        do { command = try Command.parse(line, line: number) } catch {
            writeLine("wlslider-inject: \(error)", to: 2)
            exit(64)
        }
        if let command { try injector.run(command) }
    }
    try display.roundtrip()
}

switch parseOptions(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    writeLine("wlslider-inject: \(error)\n\(usage)", to: 2)
    exit(64)
case .success(let options):
    do { try runInjector(options) } catch {
        writeLine("wlslider-inject: \(error)", to: 2)
        exit(1)
    }
}
