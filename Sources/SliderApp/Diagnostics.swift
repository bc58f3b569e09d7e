import Posix

/// One line on stderr, prefixed with the program's name. Never blocks for long: a paused terminal
/// or a stalled reader of stderr costs at most `StandardError.patienceMilliseconds` per line.
func report(_ message: String) {
    StandardError.write("wlslider: " + message + "\n")
}
