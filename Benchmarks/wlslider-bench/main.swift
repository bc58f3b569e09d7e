// wlslider-bench: measurements that are not tests (numbers to print, not to assert).
//
//   wlslider-bench <subcommand> [options]
//
// Each subcommand lives in its own file and registers here; run one under valgrind/callgrind
// or /usr/bin/time as the scripts in scripts/ do. No Foundation, like the client.
import Glibc

/// A benchmark subcommand: its name, a one-line summary, and the function that runs it with
/// the remaining arguments and returns the exit code.
struct BenchCommand: Sendable {
    let name: String
    let summary: String
    let run: @Sendable ([String]) -> Int32
}

/// `wlslider-bench row MEASUREMENT [WLSLIDER [REFERENCE [TARGET [VERDICT]]]]`: one line of the
/// table, for scripts/bench's own rows (the shell cannot pad text with non-ASCII signs reliably).
let rowCommand = BenchCommand(name: "row", summary: "Prints one row of scripts/bench's table (its columns, padded).") { cells in
    guard !cells.isEmpty, cells.count <= 5 else { return usageError("row wants 1 to 5 cells", help: "Usage: wlslider-bench row MEASUREMENT [WLSLIDER [REFERENCE [TARGET [VERDICT]]]]") }
    let c = cells + Array(repeating: "", count: 5 - cells.count)
    printRow(c[0], c[1], c[2], target: c[3], verdict: c[4])
    return 0
}

let commands: [BenchCommand] = [
    renderBenchCommand,
    audioBenchCommand,
    sessionBenchCommand,
    startupBenchCommand,
    idleInputBenchCommand,
    frameCostBenchCommand,
    jackBenchCommand,
    rowCommand,
]

func usage(_ commands: [BenchCommand]) -> String {
    "Usage: wlslider-bench <subcommand> [options]\n\nSubcommands:\n"
        + commands.map { "  \($0.name)\t\($0.summary)" }.joined(separator: "\n")
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = commands.first(where: { $0.name == name }) else {
    let given = arguments.first.map { "Error: unknown subcommand '\($0)'.\n" } ?? ""
    printError(given + usage(commands))
    exit(arguments.first == "--help" ? 0 : 64)
}
exit(command.run(Array(arguments.dropFirst())))
