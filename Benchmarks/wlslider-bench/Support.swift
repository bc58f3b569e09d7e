// Small helpers shared by the benchmark subcommands.
import Glibc

/// Writes one line to stderr (the `stderr` global is not usable from Swift 6 code).
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// A usage error: prints it and returns the conventional exit code 64.
func usageError(_ message: String, help: String) -> Int32 {
    printError("Error: \(message)\n\(help)")
    return 64
}
