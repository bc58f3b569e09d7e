// `wlslider-bench render`: the renderer's cost per animated frame, thumb-only damage vs a
// full repaint. scripts/bench-render runs it under callgrind with collection switched on
// only inside `renderBenchMeasuredFrames`, so set-up and warm-up are not counted.
import Glibc
import SliderRender
import SliderEngine

let renderBenchCommand = BenchCommand(
    name: "render",
    summary: "Renders a thumb drag frame by frame (--damage or --full) and prints pixels repainted per frame.",
    run: runRenderBench
)

private let renderHelp = """
    Usage: wlslider-bench render [--damage | --full] [--frames N] [--scale S] [--size WxH] [--shape capsule|wedge]
      --damage        Repaint only the damage of each frame (old and new thumb, fill change). The default.
      --full          Repaint the whole buffer every frame.
      --frames N      Number of measured frames (default 200), after 16 unmeasured warm-up frames.
      --scale S       Buffer pixels per logical pixel (default 1).
      --size WxH      Logical surface size (default 320x48).
      --shape NAME    Track shape, capsule or wedge (default capsule).
    """

private struct RenderBenchOptions {
    var damage = true
    var frames = 200
    var scale = 1.0
    var width = 320.0
    var height = 48.0
    var shape = TrackShape.capsule

    /// Parses the options; nil and a message on a usage error.
    static func parse(_ arguments: [String]) -> (RenderBenchOptions?, String?) {
        var options = RenderBenchOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--damage": options.damage = true
            case "--full": options.damage = false
            case "--help": return (nil, nil)
            case "--frames", "--scale", "--size", "--shape":
                guard let value = rest.popFirst() else { return (nil, "\(flag) needs a value") }
                if let problem = options.set(flag, value) { return (nil, problem) }
            default: return (nil, "unknown option '\(flag)'")
            }
        }
        return (options, nil)
    }

    private mutating func set(_ flag: String, _ value: String) -> String? {
        switch flag {
        case "--frames":
            guard let n = Int(value), n > 0 else { return "--frames wants a positive whole number, got '\(value)'" }
            frames = n
        case "--scale":
            guard let s = Double(value), s > 0, s <= 8 else { return "--scale wants a number in (0, 8], got '\(value)'" }
            scale = s
        case "--size":
            let parts = value.split(separator: "x")
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 64, h >= 24, w <= 4096, h <= 4096 else {
                return "--size wants WxH with 64 ≤ W ≤ 4096 and 24 ≤ H ≤ 4096, got '\(value)'"
            }
            (width, height) = (w, h)
        default:
            guard let s = ["capsule": TrackShape.capsule, "wedge": .wedge][value] else { return "--shape wants capsule or wedge, got '\(value)'" }
            shape = s
        }
        return nil
    }
}

/// A horizontal slider laid out like the app: track centred, thumb travelling over it.
private struct DragScenario {
    let options: RenderBenchOptions
    let renderer: SliderRenderer
    let layout: PixelLayout
    let bytes: UnsafeMutableRawBufferPointer
    var scene: SliderScene
    /// Thumb movement per frame in logical pixels: not a whole number, so the thumb visits
    /// every subpixel phase, and it turns round at the track's ends.
    var step = 2.75

    init(_ options: RenderBenchOptions) {
        self.options = options
        renderer = SliderRenderer(style: SliderStyle(trackShape: options.shape))
        let width = Int((options.width * options.scale).rounded(.up)), height = Int((options.height * options.scale).rounded(.up))
        layout = PixelLayout(width: width, height: height)
        bytes = .allocate(byteCount: layout.byteCount, alignment: 64)
        let thickness = 6.0, inset = 24.0
        let track = SliderRect(x: inset, y: (options.height - thickness) / 2, width: options.width - 2 * inset, height: thickness)
        scene = SliderScene(axis: .horizontal, track: track, fillEnd: track.x + track.width * 0.3,
                            thumbCenter: SliderPoint(x: track.x + track.width * 0.3, y: options.height / 2), thumbRadius: 9)
    }

    /// Moves the thumb one frame and renders; returns the pixels repainted.
    mutating func frame() -> Int {
        let old = scene
        if scene.thumbCenter.x + step > scene.track.maxX || scene.thumbCenter.x + step < scene.track.x { step = -step }
        scene.thumbCenter.x += step
        scene.fillEnd = scene.thumbCenter.x
        var damage: PixelRect? = nil
        if options.damage {
            let fill = SliderRect(x: min(old.fillEnd, scene.fillEnd), y: scene.track.y, width: abs(step), height: scene.track.height)
            var logical = SmallList<SliderRect>()
            logical.append(old.thumbBounds)
            logical.append(scene.thumbBounds)
            logical.append(fill)
            damage = renderer.deviceDamage(forLogical: logical, scale: options.scale,
                                           bufferWidth: layout.width, bufferHeight: layout.height)
        }
        return render(damage: damage)?.area ?? 0
    }

    /// Renders the scene into the buffer; the rectangle repainted.
    func render(damage: PixelRect?) -> PixelRect? {
        var pixels = bytes.mutableBytes
        return renderer.render(scene, scale: options.scale, into: &pixels, layout: layout, damage: damage)
    }
}

/// The frames callgrind counts (`--toggle-collect=*renderBenchMeasuredFrames*`): damage
/// computation plus render, as the client will call them.
@inline(never)
private func renderBenchMeasuredFrames(_ scenario: inout DragScenario, frames: Int) -> Int {
    var pixels = 0
    for _ in 0..<frames { pixels += scenario.frame() }
    return pixels
}

private func runRenderBench(_ arguments: [String]) -> Int32 {
    let (parsed, problem) = RenderBenchOptions.parse(arguments)
    guard let options = parsed else {
        if let problem { return usageError(problem, help: renderHelp) }
        print(renderHelp)
        return 0
    }
    var scenario = DragScenario(options)
    defer { scenario.bytes.deallocate() }
    _ = scenario.render(damage: nil)
    for _ in 0..<16 { _ = scenario.frame() }
    let rasterized = scenario.renderer.maskRasterizations
    let pixels = renderBenchMeasuredFrames(&scenario, frames: options.frames)
    let total = scenario.layout.width * scenario.layout.height
    print("render \(options.damage ? "damage" : "full"): buffer \(scenario.layout.width)x\(scenario.layout.height) scale \(options.scale), "
        + "\(options.frames) frames, pixels repainted per frame \(pixels / options.frames) of \(total), "
        + "masks rasterized during measured frames \(scenario.renderer.maskRasterizations - rasterized)")
    return 0
}
