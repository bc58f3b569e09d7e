// The probe's answers as text: a human summary, JSON, or chosen values one per line for scripts.

/// `value` with exactly `digits` decimals, locale-free ("-0.25", "12.500").
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "nan" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale), fraction = Int(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled > 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let text = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
}

extension ProbeResult {
    /// Every reported value by key, in a stable order; nil where nothing was measured.
    var values: [(key: String, value: String?)] {
        [
            ("orientation", orientation.rawValue),
            ("image.width", String(imageWidth)), ("image.height", String(imageHeight)),
            ("fraction", fraction.map { fixed($0, 4) }),
            ("thumb.x", fixed(thumbX, 2)), ("thumb.y", fixed(thumbY, 2)), ("thumb.along", fixed(thumbAlong, 2)),
            ("thumb.diameter", fixed(thumbDiameter, 2)),
            ("thumb.width", String(thumbBox.width)), ("thumb.height", String(thumbBox.height)),
            ("thumb.box_x", String(thumbBox.minX)), ("thumb.box_y", String(thumbBox.minY)),
            ("track.start", fixed(trackStart, 1)), ("track.end", fixed(trackEnd, 1)),
            ("track.thickness", fixed(trackThickness, 1)),
            ("track.start_hidden", String(startHidden)), ("track.end_hidden", String(endHidden)),
            ("track.x", String(trackBox.minX)), ("track.y", String(trackBox.minY)),
            ("track.width", String(trackBox.width)), ("track.height", String(trackBox.height)),
            ("fill.end", fillEnd.map { fixed($0, 1) }), ("fill.reaches_thumb", String(fillReachesThumb)),
            ("panel.x", panel.map { String($0.minX) }), ("panel.y", panel.map { String($0.minY) }),
            ("panel.width", panel.map { String($0.width) }), ("panel.height", panel.map { String($0.height) }),
        ]
    }

    /// One flat JSON object (keys as in `values`; numbers and booleans unquoted, missing = null).
    var json: String {
        let fields = values.map { key, value -> String in
            guard let value else { return "\"\(key)\":null" }
            let quoted = key == "orientation"
            return "\"\(key)\":" + (quoted ? "\"\(value)\"" : (value == "nan" ? "null" : value))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A few lines for a person.
    var summary: String {
        let panelText = panel.map { "panel \($0.width)x\($0.height) at \($0.minX),\($0.minY)" } ?? "no panel"
        let hidden = startHidden ? " (start hidden under the thumb)" : endHidden ? " (end hidden under the thumb)" : ""
        return """
            \(orientation.rawValue) slider, \(panelText)
            track \(fixed(trackStart, 1))...\(fixed(trackEnd, 1)) along the axis, \(fixed(trackThickness, 1)) thick\(hidden)
            thumb centre (\(fixed(thumbX, 2)), \(fixed(thumbY, 2))), diameter \(fixed(thumbDiameter, 2)) (box \(thumbBox.width)x\(thumbBox.height))
            fill to \(fillEnd.map { fixed($0, 1) } ?? "none")\(fillReachesThumb ? ", reaching the thumb" : "")
            value fraction \(fraction.map { fixed($0, 4) } ?? "unknown")
            """
    }
}
