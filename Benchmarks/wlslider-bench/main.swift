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

let commands: [BenchCommand] = [
    renderBenchCommand,
    audioBenchCommand,
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
