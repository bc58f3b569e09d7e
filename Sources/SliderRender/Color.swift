// Colours as the user writes them: straight (not premultiplied) 8-bit RGBA.

/// A straight-alpha sRGB colour with 8 bits per channel, as written in `#RRGGBB[AA]`.
///
/// The renderer premultiplies internally; callers never deal with premultiplied values.
public struct Color: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    /// Creates a colour from straight channels; `alpha` defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (hex digits in either case).
    ///
    /// Returns nil for anything else: a missing `#`, three- or four-digit shorthands, spaces,
    /// or non-hex characters. `#RRGGBB` is opaque.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9 else { return nil }
        var channels: [UInt8] = []
        var index = 1
        while index < utf8.count {
            guard let high = Self.hexDigit(utf8[index]), let low = Self.hexDigit(utf8[index + 1]) else { return nil }
            channels.append(high << 4 | low)
            index += 2
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#rrggbbaa`, lower case: the form `init?(hex:)` reads back.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "#")]
        for channel in [red, green, blue, alpha] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The colour as one premultiplied ARGB8888 word (`0xAARRGGBB`), as stored in the buffer.
    public var premultipliedARGB: UInt32 {
        let a = UInt32(alpha)
        func premultiply(_ channel: UInt8) -> UInt32 { (UInt32(channel) * a + 127) / 255 }
        return a << 24 | premultiply(red) << 16 | premultiply(green) << 8 | premultiply(blue)
    }
}
