import Testing
@testable import wlslider_inject

@Suite("Injector commands")
struct InjectorCommandTests {
    private func parse(_ line: String) throws(CommandError) -> Command? { try Command.parse(line, line: 7) }

    @Test("every command parses into its value; blank lines and comments are nothing")
    func parsesEveryCommand() throws {
        #expect(try parse("pointer move 12.5 300") == .pointerMove(GlobalPoint(x: 12.5, y: 300)))
        #expect(try parse("pointer down") == .pointerButton(pressed: true))
        #expect(try parse("  pointer   up ") == .pointerButton(pressed: false))
        #expect(try parse("pointer glide 10 20 300") == .pointerGlide(to: GlobalPoint(x: 10, y: 20), milliseconds: 300, steps: 30))
        #expect(try parse("pointer glide 10 20 5 4") == .pointerGlide(to: GlobalPoint(x: 10, y: 20), milliseconds: 5, steps: 4))
        #expect(try parse("wheel -3") == .wheel(detents: -3))
        #expect(try parse("touch down 1 400 300.25") == .touchDown(id: 1, at: GlobalPoint(x: 400, y: 300.25)))
        #expect(try parse("touch move 1 410 300") == .touchMove(id: 1, to: GlobalPoint(x: 410, y: 300)))
        #expect(try parse("touch glide 1 500 300 200") == .touchGlide(id: 1, to: GlobalPoint(x: 500, y: 300), milliseconds: 200, steps: 20))
        #expect(try parse("touch up 1") == .touchUp(id: 1))
        #expect(try parse("touch cancel") == .touchCancel)
        #expect(try parse("touch frame") == .touchFrame)
        #expect(try parse("sleep 250") == .sleep(milliseconds: 250))
        #expect(try parse("sync") == .sync)
        #expect(try parse("echo pressed at 75 %") == .echo("pressed at 75 %"))
        #expect(try parse("") == nil)
        #expect(try parse("   # a comment") == nil)
    }

    @Test("mistakes name the line, the problem and the text", arguments: [
        ("jump 3", "line 7: unknown command 'jump': 'jump 3'"),
        ("pointer", "line 7: missing pointer action (move, down, up, glide): 'pointer'"),
        ("pointer move 10", "line 7: missing y: 'pointer move 10'"),
        ("pointer move ten 10", "line 7: x 'ten' is not a number: 'pointer move ten 10'"),
        ("pointer move -1 10", "line 7: coordinates -1.0 10.0 lie outside the layout (negative): 'pointer move -1 10'"),
        ("touch down 1 5 5 extra", "line 7: unexpected 'extra': 'touch down 1 5 5 extra'"),
        ("touch lift 1", "line 7: unknown touch action 'lift': 'touch lift 1'"),
        ("sleep 1.5", "line 7: milliseconds '1.5' is not a whole number in 0...600000: 'sleep 1.5'"),
        ("touch up -2", "line 7: touch id '-2' is not a whole number in 0...1000: 'touch up -2'"),
    ])
    func reportsMistakes(line: String, message: String) {
        do {
            _ = try parse(line)
            Issue.record("'\(line)' parsed")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("options: backend, extent and settle time; bad values are one-line errors")
    func options() throws {
        let good = try parseOptions(["--backend", "fake-input", "--extent", "1600x1200", "--settle", "50"]).get()
        #expect(good.backend == .fakeInput && good.extent?.width == 1600 && good.extent?.height == 1200 && good.settleMilliseconds == 50)
        let defaults = try parseOptions([]).get()
        #expect(defaults.backend == .auto && defaults.extent == nil && defaults.settleMilliseconds == 300)
        for (arguments, message) in [
            (["--backend", "uinput"], "--backend 'uinput': expected auto, virtual-pointer or fake-input"),
            (["--extent", "800"], "--extent '800': expected WxH, e.g. 800x600"),
            (["--settle"], "--settle needs a value"),
            (["--bogus", "1"], "unknown option '--bogus' (see --help)"),
        ] {
            guard case .failure(let error) = parseOptions(arguments) else { Issue.record("\(arguments) accepted"); continue }
            #expect(error.description == message)
        }
    }
}
