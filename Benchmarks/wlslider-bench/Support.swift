// Small helpers shared by the benchmark subcommands.
import Glibc
import SliderOutput

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

/// The columns of the table `scripts/bench` prints; every subcommand that contributes to it prints
/// its rows through here, so the columns line up (scripts/bench uses the same widths).
func printRow(_ measurement: String, _ wlslider: String = "", _ reference: String = "", target: String = "", verdict: String = "") {
    func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
    var line = pad(measurement, 46) + pad(wlslider, 20) + pad(reference, 22) + pad(target, 10) + verdict
    while line.last == " " { line.removeLast() }
    print(line)
}

/// "met" or "MISSED", for the table's last column.
func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

/// The median of a non-empty list.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The median over runs of a ÷ b, pairing each run of one client with the run of the other taken
/// next to it: load that drifts during a bench then weighs on both sides of each ratio.
func medianRatio(_ a: [Double], _ b: [Double]) -> Double {
    let ratios = zip(a, b).map { $0 / $1 }
    return ratios.isEmpty ? .nan : median(ratios)
}

/// A number with a fixed count of decimals (locale-free).
func fixed(_ value: Double, _ decimals: Int) -> String {
    DecimalText.fixed(value, decimals: decimals)
}

/// "median (min–max) unit" of a list of milliseconds.
func millisecondsSummary(_ values: [Double]) -> String {
    guard let low = values.min(), let high = values.max() else { return "—" }
    return "\(fixed(median(values), 1)) (\(fixed(low, 1))–\(fixed(high, 1)))"
}
