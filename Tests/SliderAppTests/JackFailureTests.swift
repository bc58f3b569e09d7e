// The failure rules of --jack / --midi-cc (README "Failure behaviour"), and the rule that libjack
// costs nothing without them.
import Glibc
import TestCompositor
import Testing

private let nameRule = "a JACK client name has 1 to 63 bytes, no colon and no control characters"

@Suite(.serialized) struct JackFailureTests {
    /// No libjack.so.0 on the machine (WLSLIDER_LIBJACK names one that is not there): one line, exit 1.
    @Test func missingLibraryIsOneLineAndExit1() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try WlsliderProcess(["--jack"], environment: compositor.environment.merging(["WLSLIDER_LIBJACK": "libjack-wlslider-test-missing.so.0"]) { $1 })
            #expect(try await run.waitForExit() == 1)
            #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
            #expect(run.stderrText.hasPrefix("wlslider: --jack: cannot load libjack-wlslider-test-missing.so.0 ("), "\(run.stderrText)")
            #expect(run.stderrText.contains("install jackd2, or pipewire-jack"))
        }
    }

    /// No server running: one line, exit 1, and nothing of libjack's own chatter.
    @Test func missingServerIsOneLineAndExit1() async throws {
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let environment = compositor.environment.merging(["JACK_DEFAULT_SERVER": "wlslider-test-no-such-server", "JACK_NO_START_SERVER": "1"]) { $1 }
            let run = try WlsliderProcess(["--midi-cc", "7"], environment: environment)
            #expect(try await run.waitForExit() == 1)
            #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
            #expect(run.stderrText.hasPrefix("wlslider: --midi-cc: no JACK server to connect to (jack_client_open status 0x11)"), "\(run.stderrText)")
        }
    }

    /// No server, and nothing in the environment that says not to start one: wlslider asks libjack
    /// not to (JackNoStartServer), so the command in ~/.jackdrc that libjack would otherwise run
    /// never runs; one line, exit 1, at once.
    @Test func noServerIsNeverStarted() async throws {
        let home = makeTemporaryDirectory("jackdrc")
        defer { removeDirectory(home) }
        try writeFile(home + "/fake-jackd", "#!/bin/sh\ntouch \(home)/started\nsleep 5\n", mode: 0o755)
        try writeFile(home + "/.jackdrc", home + "/fake-jackd\n")
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            var environment = compositor.environment.merging(["HOME": home, "JACK_DEFAULT_SERVER": "wlslider-test-never-started"]) { $1 }
            environment["JACK_NO_START_SERVER"] = nil
            let run = try WlsliderProcess(["--jack"], environment: environment, unsetting: ["JACK_NO_START_SERVER", "JACK_START_SERVER"])
            #expect(try await run.waitForExit(timeout: .seconds(10)) == 1)
            #expect(run.stderrLines.count == 1 && run.stderrText.hasPrefix("wlslider: --jack: no JACK server to connect to"), "\(run.stderrText)")
            try await Task.sleep(for: .milliseconds(300))
            #expect(access(home + "/started", F_OK) != 0, "libjack ran ~/.jackdrc")
        }
    }

    /// A server that is there but refuses the client is not "no server": a name of 63 bytes that
    /// is taken cannot take the -01 jack2 would add, and the line says so.
    @Test func aTakenNameTooLongToMakeUniqueIsNamed() async throws {
        let server = try await JackServer()
        let name = String(repeating: "n", count: 63)
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let first = try await startJackWlslider(["--jack", "--jack-name", name], server: server, compositor: compositor)
            try await server.waitForPort(name + ":value", of: first)
            let second = try WlsliderProcess(["--jack", "--jack-name", name], environment: compositor.environment.merging(server.environment) { $1 })
            #expect(try await second.waitForExit() == 1)
            #expect(second.stderrLines == ["wlslider: --jack: the JACK server refused a client named \"\(name)\" (jack_client_open status 0x21); "
                                           + "if a client of that name is running already, the server cannot add -01 to a name of more than 60 bytes: give a shorter --jack-name"],
                    "\(second.stderrText)")
            first.signal(SIGTERM)
            #expect(try await first.waitForExit() == 0)
        }
    }

    /// The server goes away mid-run: one line; stdout goes on (a new target still prints), and
    /// wlslider ends 0 when told to.
    @Test func serverGoneLeavesTheOtherSinks() async throws {
        let server = try await JackServer()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try await startJackWlslider(["--jack", "--value", "10"], server: server, compositor: compositor)
            try await server.waitForPort("wlslider:value", of: run)
            try await server.stop()
            try await run.wait(for: "the line about the server") { run.stderrLines.count == 1 }
            #expect(run.stderrLines == ["wlslider: jack: the server shut wlslider down (JACK server has been closed); no more values go to JACK"]
                    || run.stderrText.hasPrefix("wlslider: jack: the server shut wlslider down"), "\(run.stderrText)")
            run.send("20\n")
            try await run.waitForLastLine("20.00")
            run.signal(SIGTERM)
            #expect(try await run.waitForExit() == 0)
            #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
        }
    }

    /// When JACK was the last sink (stdout's reader had gone), the server going away ends wlslider
    /// with status 1.
    @Test func serverGoneWhenItWasTheLastSinkExits1() async throws {
        let server = try await JackServer()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let run = try await startJackWlslider(["--jack", "--value", "10"], server: server, compositor: compositor)
            try await server.waitForPort("wlslider:value", of: run)
            run.closeStdout()
            run.send("30\n")  // its line meets EPIPE: stdout ends quietly, JACK goes on
            try await run.expectStillRunning(for: .milliseconds(500))
            try await server.stop()
            #expect(try await run.waitForExit() == 1)
            #expect(run.stderrLines.count == 1 && run.stderrText.contains("jack: the server shut wlslider down"), "\(run.stderrText)")
        }
    }

    /// Without --jack and --midi-cc libjack is never loaded (start-up and memory stay as they
    /// were); with --jack it is.
    @Test func libjackIsMappedOnlyWhenAsked() async throws {
        let server = try await JackServer()
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let plain = try await startJackWlslider(["--value", "10"], server: server, compositor: compositor)
            let maps = String(decoding: readFile("/proc/\(plain.pid)/maps"), as: UTF8.self)
            #expect(!maps.isEmpty && !maps.contains("libjack"), "libjack mapped without --jack")
            plain.signal(SIGTERM)
            #expect(try await plain.waitForExit() == 0)
        }
        try await withTestCompositor(StreamFixture.configuration()) { compositor in
            let jack = try await startJackWlslider(["--jack", "--value", "10"], server: server, compositor: compositor)
            try await server.waitForPort("wlslider:value", of: jack)
            #expect(String(decoding: readFile("/proc/\(jack.pid)/maps"), as: UTF8.self).contains("libjack"))
            jack.signal(SIGTERM)
            #expect(try await jack.waitForExit() == 0)
        }
    }

    /// Options that need --jack or --midi-cc, and bad MIDI numbers, are usage errors.
    @Test(arguments: [
        (["--jack-name", "x"], "Error: --jack-name needs --jack or --midi-cc"),
        (["--jack-connect", "system:playback_1"], "Error: --jack-connect needs --jack or --midi-cc"),
        (["--midi-channel", "2"], "Error: --midi-channel needs --midi-cc"),
        (["--midi-14bit"], "Error: --midi-14bit needs --midi-cc"),
        (["--midi-cc", "128"], "Error: --midi-cc: \"128\" is not a controller number from 0 to 127"),
        (["--midi-cc", "32", "--midi-14bit"], "Error: --midi-cc: \"32\" is not a controller from 0 to 31 (with --midi-14bit the LSB goes on NUMBER+32)"),
        (["--midi-cc", "1", "--midi-channel", "17"], "Error: --midi-channel: \"17\" is not a MIDI channel from 1 to 16"),
        (["--jack", "--jack-name", "a:b"], "Error: --jack-name \"a:b\": \(nameRule)"),
        (["--jack", "--jack-name", ""], "Error: --jack-name \"\": \(nameRule)"),
        (["--jack", "--jack-name", String(repeating: "n", count: 300)], "Error: --jack-name \"\(String(repeating: "n", count: 40))\"…: \(nameRule)"),
        // A newline would make the port's name two lines in jack_lsp (and the message two lines).
        (["--jack", "--jack-name", "a\nb"], "Error: --jack-name \"a\\x0ab\": \(nameRule)"),
        (["--jack", "--jack-connect", ""], "Error: --jack-connect \"\": expected a port name such as system:playback_1 (jack_lsp lists them)"),
        (["--midi-cc", "-1"], "Error: --midi-cc: \"-1\" is not a controller number from 0 to 127"),
        (["--midi-cc", "1e3"], "Error: --midi-cc: \"1e3\" is not a controller number from 0 to 127"),
        (["--midi-cc", "nan"], "Error: --midi-cc: \"nan\" is not a controller number from 0 to 127"),
        (["--midi-cc", "0x10"], "Error: --midi-cc: \"0x10\" is not a controller number from 0 to 127"),
        (["--midi-cc", " 7"], "Error: --midi-cc: \" 7\" is not a controller number from 0 to 127"),
        (["--midi-cc", ""], "Error: --midi-cc: \"\" is not a controller number from 0 to 127"),
        (["--midi-cc", "127", "--midi-14bit"], "Error: --midi-cc: \"127\" is not a controller from 0 to 31 (with --midi-14bit the LSB goes on NUMBER+32)"),
        (["--midi-cc", "1", "--midi-channel", "0"], "Error: --midi-channel: \"0\" is not a MIDI channel from 1 to 16"),
        (["--midi-cc", "1", "--midi-channel", "1.5"], "Error: --midi-channel: \"1.5\" is not a MIDI channel from 1 to 16"),
        (["--osc-listen", "nope"], "Error: --osc-listen: \"nope\": \"nope\" is not a port from 1 to 65535 (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)"),
        (["--osc-listen", "0"], "Error: --osc-listen: \"0\": \"0\" is not a port from 1 to 65535 (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)"),
        (["--osc-listen", "65536"], "Error: --osc-listen: \"65536\": \"65536\" is not a port from 1 to 65535 (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)"),
        // A port is a number: "-1" is one (out of range), not a missing value and an option.
        (["--osc-listen", "-1"], "Error: --osc-listen: \"-1\": \"-1\" is not a port from 1 to 65535 (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)"),
        (["--osc-listen", "host:"], "Error: --osc-listen: \"host:\": \"\" is not a port from 1 to 65535 (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)"),
        (["--osc-listen", ":5000"], "Error: --osc-listen: \":5000\": empty host (expected [HOST:]PORT, e.g. 9000 or 127.0.0.1:9000)"),
        (["--settle", "-1"], "Error: --settle -1 must be between 0 and 60 seconds"),
        (["--settle", "nan"], "Error: --settle must be a finite number, not nan"),
        (["--settle", "inf"], "Error: --settle must be a finite number, not inf"),
        (["--settle", "1e308"], "Error: --settle 1e+308 must be between 0 and 60 seconds"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let (environment, directory) = environmentWithoutCompositor()
        defer { removeDirectory(directory) }
        let run = try WlsliderProcess(arguments, environment: environment)
        #expect(try await run.waitForExit() == 64)
        #expect(run.stderrLines.first == message, "\(run.stderrText)")
    }
}
