// wlslider-probe: measures wlslider's slider in a screenshot, so end-to-end tests can assert
// "the thumb stands at 25 %" or "the thumb is 40 px wide while pressed" from real pixels.
// Exit status: 0 with a measurement, 1 when the image cannot be read or holds no slider, 64 for a
// usage error.
import Glibc
import PNGImage

let usage = """
    usage: wlslider-probe [--json | --get KEY[,KEY...]] [--panel #RRGGBB] [--track #RRGGBB]
                          [--fill #RRGGBB] [--thumb #RRGGBB] IMAGE.png

    Finds the slider in IMAGE.png by its colours (wlslider's defaults unless given) and prints the
    track's extent, the thumb's centre and diameter, the fill's end and the value fraction
    (0 = minimum, 1 = maximum). --get prints the named values, one per line ("nan" when unknown);
    keys: orientation, image.width, image.height, fraction, thumb.x, thumb.y, thumb.along,
    thumb.diameter, thumb.width, thumb.height, thumb.box_x, thumb.box_y, track.start, track.end,
    track.thickness, track.start_hidden, track.end_hidden, track.x, track.y, track.width,
    track.height, fill.end, fill.reaches_thumb, panel.x, panel.y, panel.width, panel.height.
    Positions along the axis (thumb.along, track.start/end, fill.end) are x for a horizontal
    slider and pixels up from the image's bottom edge for a vertical one.
    """

func fail(_ message: String, status: Int32) -> Never {
    var bytes = Array("wlslider-probe: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

func say(_ text: String) {
    var bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

enum OutputMode { case summary, json, get([String]) }

var colors = SliderColors()
var mode = OutputMode.summary
var path: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func colorValue() -> RGB {
        guard let text = arguments.popFirst() else { fail("\(argument) needs a colour #RRGGBB", status: 64) }
        guard let color = RGB(hex: text) else { fail("\(argument) '\(text)': expected #RRGGBB", status: 64) }
        return color
    }
    switch argument {
    case "--help", "-h": say(usage); exit(0)
    case "--json": mode = .json
    case "--get":
        guard let keys = arguments.popFirst() else { fail("--get needs a list of keys", status: 64) }
        mode = .get(keys.split(separator: ",").map(String.init))
    case "--panel": colors.panel = colorValue()
    case "--track": colors.track = colorValue()
    case "--fill": colors.fill = colorValue()
    case "--thumb": colors.thumb = colorValue()
    default:
        guard !argument.hasPrefix("-"), path == nil else { fail("unexpected argument '\(argument)'\n\(usage)", status: 64) }
        path = argument
    }
}
guard let path else { fail("no image given\n\(usage)", status: 64) }

let result: ProbeResult
do {
    result = try SliderProbe(image: try PNGImage(contentsOf: path), colors: colors).measure()
} catch {
    fail("\(path): \(error)", status: 1)
}

switch mode {
case .summary: say(result.summary)
case .json: say(result.json)
case .get(let keys):
    let values = result.values
    for key in keys {
        guard let entry = values.first(where: { $0.key == key }) else { fail("unknown key '\(key)' (see --help)", status: 64) }
        say(entry.value ?? "nan")
    }
}
