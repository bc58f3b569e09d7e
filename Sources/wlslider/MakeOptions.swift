import ArgumentParser
import SliderApp
import SliderEngine
import SliderOutput
import SliderRender

extension WlsliderCommand {
    /// Turns the parsed arguments into checked options; every problem is a `ValidationError`
    /// (printed with the usage, exit status 64).
    func makeOptions() throws -> AppOptions {
        var options = AppOptions()
        // Checked before the engine sees them, so the message names the option and the text given.
        for (name, v) in [("--min", min), ("--max", max)] where !v.isFinite {
            throw ValidationError("\(name) must be a finite number, not \(v)")
        }
        if let size, size.size == nil {
            throw ValidationError("--size \(size.text): expected WIDTHxHEIGHT in whole logical pixels from 1 to \(SizeArgument.limit), e.g. 320x48")
        }
        options.slider = try sliderConfiguration()
        if let value {
            guard value.isFinite, value >= min, value <= max else {
                throw ValidationError("--value \(value.compact) must lie between --min \(min.compact) and --max \(max.compact)")
            }
        }
        options.value = value
        options.size = size?.size ?? options.slider.preferredSize
        options.title = title
        options.style = style(edgeMode: edge != nil)
        options.output = try outputOptions()
        options.exitOnEOF = exitOnEof
        return options
    }

    private func sliderConfiguration() throws -> SliderConfiguration {
        var c = SliderConfiguration()
        c.minimum = min
        c.maximum = max
        c.step = step
        c.edge = edge
        c.orientation = orientation ?? edge?.orientation ?? .horizontal
        if let size = size?.size {
            c.thickness = c.orientation == .horizontal ? size.height : size.width
        }
        c.thumbScale = thumbScale
        c.thumbDuration = thumbDuration
        c.jumpDuration = jumpDuration
        c.dragDuration = dragDuration
        c.curve = curve.curve
        c.glide = glide
        c.scrubSpeeds = scrubSpeeds.numbers
        c.scrubOffsets = scrubOffsets.numbers
        c.edgeHideDelay = edgeHideDelay
        c.trackThickness = track == .wedge ? (c.thickness / 3).rounded() : nil
        do {
            try c.validate()
        } catch {
            throw ValidationError(usageMessage(for: error))
        }
        return c
    }

    /// The engine's complaint about the configuration, in terms of the options the user typed.
    private func usageMessage(for error: SliderError) -> String {
        switch error {
        case .invalidRange(let lo, let hi):
            return "--max \(hi.compact) must be greater than --min \(lo.compact)"
        case .invalid(let name, let v, let why):
            guard let option = Self.optionNames[name] else { return error.description }
            return "\(option) \(v.compact) \(why)"
        case .notFinite(let name):
            guard let option = Self.optionNames[name] else { return error.description }
            return "\(option) must be a finite number"
        case .scrubbing(let why):
            return "--scrub-speeds \(scrubSpeeds.defaultValueDescription) and --scrub-offsets \(scrubOffsets.defaultValueDescription): \(why)"
        case .edgeOrientation(let edge, let orientation):
            return "--edge \(edge.rawValue) needs --orientation \(edge.orientation.rawValue), not \(orientation.rawValue)"
        default:
            return error.description
        }
    }

    /// The engine's names for configuration fields, and the options that set them.
    private static let optionNames = [
        "minimum": "--min", "maximum": "--max", "step": "--step", "thickness": "--size",
        "track thickness": "--size", "thumb scale": "--thumb-scale", "thumb duration": "--thumb-duration",
        "jump duration": "--jump-duration", "drag duration": "--drag-duration", "edge hide delay": "--edge-hide-delay",
    ]

    private func style(edgeMode: Bool) -> SliderStyle {
        var s = SliderStyle()
        s.trackShape = track
        if edgeMode { s.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0) }
        if let trackColor { s.trackColor = trackColor.color }
        if let fillColor { s.fillColor = fillColor.color }
        if let thumbColor { s.thumbColor = thumbColor.color }
        if let backgroundColor { s.backgroundColor = backgroundColor.color }
        return s
    }

    private func outputOptions() throws -> OutputOptions {
        var o = OutputOptions()
        do throws(OutputOptionError) {
            let scale = try scaleOutput.map { text throws(OutputOptionError) in try OutputScale.parse(text) }
            let mapping = OutputMapping(scale: scale, curve: outputCurve)
            o.format = OutputFormat(style: format, precision: try OutputFormat.parsePrecision(String(precision)),
                                    mapping: mapping)
            o.osc = try osc.map { text throws(OutputOptionError) in try OSCDestination.parse(text) }
            o.oscTimetags = oscTimetags
            if !exec.isEmpty { o.exec = try ExecTemplate(arguments: exec) }
            o.audioOut = try audioOut.map { text throws(OutputOptionError) in try AudioRateWriter.Destination.parse(text) }
            o.rate = try AudioRateWriter.parseRate(String(rate))
        } catch {
            throw ValidationError(error.description)
        }
        if oscTimetags && osc == nil { throw ValidationError("--osc-timetags needs --osc") }
        return o
    }
}

extension Double {
    /// `5` rather than `5.0`, `0.25` as is: numbers in messages read as the user typed them.
    var compact: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
