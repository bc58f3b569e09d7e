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
        // Checked before the engine sees them, so the message names the option and the number
        // given (a number too large for a Double, such as 1e999, arrives as inf).
        let numbers: [(String, Double?)] = [
            ("--min", min), ("--max", max), ("--value", value), ("--step", step), ("--edge-hide-delay", edgeHideDelay),
            ("--thumb-scale", thumbScale), ("--thumb-duration", thumbDuration), ("--jump-duration", jumpDuration),
            ("--drag-duration", dragDuration), ("--settle", settle),
        ]
        for case let (name, v?) in numbers where !v.isFinite {
            throw ValidationError("\(name) must be a finite number, not \(v)")
        }
        if let size, size.sides == nil {
            throw ValidationError("--size \(size.text): expected WIDTHxHEIGHT in whole logical pixels from 1 to \(SizeArgument.limit), e.g. 320x48")
        }
        if let size, size.size == nil {
            throw ValidationError("--size \(size.text): at most \(SizeArgument.areaLimit) pixels in all (e.g. 8192x4096), so that the window's buffers fit in shared memory")
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
        guard settle >= 0, settle <= 60 else { throw ValidationError("--settle \(settle.compact) must be between 0 and 60 seconds") }
        options.settle = settle
        options.oscListen = try oscListenAddress()
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
        case .rangeTooWide(let lo, let hi):
            return "--min \(lo.compact) and --max \(hi.compact): the range is too wide; --max minus --min must be a finite number"
        case .invalid(let field, let v, let why):
            guard let option = Self.option(for: field) else { return error.description }
            return "\(option) \(v.compact) \(why)"
        case .notFinite(let field):
            guard let option = Self.option(for: field) else { return error.description }
            return "\(option) must be a finite number"
        case .outOfRange(let field, let v, let lo, let hi):
            guard let option = Self.option(for: field) else { return error.description }
            return "\(option) \(v.compact) must lie between --min \(lo.compact) and --max \(hi.compact)"
        case .scrubbing(let why):
            return "--scrub-speeds \(scrubSpeeds.defaultValueDescription) and --scrub-offsets \(scrubOffsets.defaultValueDescription): \(why)"
        case .edgeOrientation(let edge, let orientation):
            return "--edge \(edge.rawValue) needs --orientation \(edge.orientation.rawValue), not \(orientation.rawValue)"
        }
    }

    /// The option that sets a configuration field; nil for the fields no option sets (their
    /// defaults are valid, so the engine cannot complain about them).
    private static func option(for field: SliderError.Field) -> String? {
        switch field {
        case .minimum: "--min"
        case .maximum: "--max"
        case .range: "--min/--max"
        case .step: "--step"
        case .thickness, .trackThickness: "--size"
        case .thumbScale: "--thumb-scale"
        case .thumbDuration: "--thumb-duration"
        case .jumpDuration: "--jump-duration"
        case .dragDuration: "--drag-duration"
        case .edgeHideDelay: "--edge-hide-delay"
        case .scrubbing: "--scrub-speeds/--scrub-offsets"
        case .edge: "--edge"
        case .value: "--value"
        case .thumbDiameter, .edgeDuration, .keyStep, .pageFraction, .change: nil
        }
    }

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
            o.osc = try osc.map { text throws(OutputOptionError) in try OSCDestination.parse(text, timetagged: oscTimetags) }
            o.oscTimetags = oscTimetags
            if !exec.isEmpty { o.exec = try ExecTemplate(arguments: exec) }
            o.audioOut = try audioOut.map { text throws(OutputOptionError) in try AudioRateWriter.Destination.parse(text) }
            o.rate = try AudioRateWriter.parseRate(String(rate))
        } catch {
            throw ValidationError(error.description)
        }
        if oscTimetags && osc == nil { throw ValidationError("--osc-timetags needs --osc") }
        o.jack = try jackOptions()
        return o
    }

    /// `--jack`, `--midi-cc` and the options that only make sense with one of them.
    private func jackOptions() throws -> JackOutput.Options? {
        if midiCc == nil {
            if midiChannel != nil { throw ValidationError("--midi-channel needs --midi-cc") }
            if midi14bit { throw ValidationError("--midi-14bit needs --midi-cc") }
        }
        guard jack || midiCc != nil else {
            if jackName != nil { throw ValidationError("--jack-name needs --jack or --midi-cc") }
            if !jackConnect.isEmpty { throw ValidationError("--jack-connect needs --jack or --midi-cc") }
            return nil
        }
        var control: MIDIControl?
        do throws(OutputOptionError) {
            control = try midiCc.map { text throws(OutputOptionError) in
                try MIDIControl.parse(controller: text, channel: midiChannel, fourteenBit: midi14bit)
            }
        } catch {
            throw ValidationError(error.description)
        }
        let name = jackName ?? JackOutput.Options.defaultName
        // jack_client_name_size() is 64 with the terminating NUL in jack2 and PipeWire alike. JACK
        // itself takes control characters, but a port name with a newline breaks every tool that
        // lists ports a line each (jack_lsp, the tests' own waits).
        guard !name.isEmpty, name.utf8.count <= 63, !name.contains(":"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw ValidationError("--jack-name \(StdinCommandError.quoted(name)): a JACK client name has 1 to 63 bytes, no colon and no control characters")
        }
        // jack2's jack_port_by_name("") returns some port rather than none, so an empty name would
        // be reported as a port that cannot be connected rather than as no port at all.
        if jackConnect.contains("") {
            throw ValidationError("--jack-connect \"\": expected a port name such as system:playback_1 (jack_lsp lists them)")
        }
        return JackOutput.Options(name: name, audio: jack, midi: control, connections: jackConnect)
    }

    /// `--osc-listen [HOST:]PORT`.
    private func oscListenAddress() throws -> OSCListenAddress? {
        do throws(OutputOptionError) {
            return try oscListen.map { text throws(OutputOptionError) in try OSCListenAddress.parse(text) }
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension Double {
    /// `5` rather than `5.0`, `0.25` as is: numbers in messages read as the user typed them.
    var compact: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
