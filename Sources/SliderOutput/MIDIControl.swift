/// `--midi-cc NUMBER` with `--midi-channel` and `--midi-14bit`: the slider as a MIDI control change.
///
/// A CC has its own fixed range, so it carries the slider's *position* in its range (the fader's
/// travel: 0 at the minimum, 127 or 16383 at the maximum), whatever `--scale-output` and
/// `--output-curve` say; a receiver maps it onto its parameter (MIDI learn). With 14 bits, the
/// most significant 7 go on controller NUMBER and the least significant 7 on NUMBER + 32, MSB
/// first, as the MIDI 1.0 specification pairs controllers 0–31 with 32–63.
public struct MIDIControl: Equatable, Sendable {
    /// The controller number, 0…127 (0…31 with `fourteenBit`).
    public var controller: UInt8
    /// The channel, 1…16.
    public var channel: UInt8
    /// Send a 14-bit value as an MSB/LSB pair.
    public var fourteenBit: Bool

    /// Creates a checked control.
    public init(controller: UInt8, channel: UInt8 = 1, fourteenBit: Bool = false) {
        self.controller = controller
        self.channel = channel
        self.fourteenBit = fourteenBit
    }

    /// Parses the three options; the message names the option and the accepted numbers.
    public static func parse(controller: String, channel: String?, fourteenBit: Bool) throws(OutputOptionError) -> MIDIControl {
        let highest = fourteenBit ? 31 : 127
        guard let number = Int(controller), (0...highest).contains(number) else {
            throw OutputOptionError(fourteenBit
                ? "--midi-cc: \"\(controller)\" is not a controller from 0 to 31 (with --midi-14bit the LSB goes on NUMBER+32)"
                : "--midi-cc: \"\(controller)\" is not a controller number from 0 to 127")
        }
        var channelNumber = 1
        if let channel {
            guard let parsed = Int(channel), (1...16).contains(parsed) else {
                throw OutputOptionError("--midi-channel: \"\(channel)\" is not a MIDI channel from 1 to 16")
            }
            channelNumber = parsed
        }
        return MIDIControl(controller: UInt8(number), channel: UInt8(channelNumber), fourteenBit: fourteenBit)
    }

    /// The largest value: 127, or 16383 with 14 bits.
    public var maximumValue: Int32 { fourteenBit ? 16383 : 127 }

    /// The control value for `value` in `range`: its position, clamped to 0…1, rounded to the
    /// nearest step.
    @inline(__always)
    public func quantize(_ value: Double, range: SliderRange) -> Int32 {
        let position = Swift.min(Swift.max(range.position(of: value), 0), 1)
        guard position == position else { return 0 }
        return Int32((position * Double(maximumValue)).rounded())
    }

    /// The status byte: control change on the channel.
    public var status: UInt8 { 0xB0 | (channel - 1) }
}
