/// A 64-bit NTP time: seconds since 1900-01-01 UTC and a 32-bit binary fraction — the OSC timetag.
public struct NTPTimetag: Equatable, Sendable {
    /// Whole seconds since 1900-01-01 00:00 UTC.
    public var seconds: UInt32
    /// Fraction of a second in units of 2⁻³² s.
    public var fraction: UInt32

    /// Seconds between the NTP epoch (1900) and the Unix epoch (1970): 70 years including 17 leap days.
    public static let unixEpochOffset: Double = 2_208_988_800

    /// Creates a timetag from its two fields.
    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    /// The timetag of a Unix time in seconds (e.g. `clock_gettime(CLOCK_REALTIME)`).
    public init(unixTime: Double) {
        let ntp = Swift.max(unixTime + Self.unixEpochOffset, 0)
        let whole = ntp.rounded(.down)
        let fractionUnits = ((ntp - whole) * 4_294_967_296).rounded(.down)
        seconds = UInt32(truncatingIfNeeded: Int64(whole))
        fraction = UInt32(Swift.min(fractionUnits, 4_294_967_295))
    }

    /// The 64-bit value as sent on the wire.
    public var rawValue: UInt64 { UInt64(seconds) << 32 | UInt64(fraction) }
}

/// Builds OSC 1.0 packets into one reusable byte buffer (no allocation once it has grown):
/// OSC-strings NUL-terminated and padded to 4 bytes, numbers big-endian, bundles as `#bundle`,
/// timetag, then size-prefixed elements.
struct OSCPacketBuilder {
    private(set) var bytes: [UInt8] = []
    private var elementStart: Int?

    init() { bytes.reserveCapacity(256) }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        elementStart = nil
    }

    /// A message with one float32 argument: address, `,f`, the value.
    mutating func appendMessage(_ address: String, float value: Float) {
        appendString(address)
        appendString(",f")
        appendUInt32(value.bitPattern)
    }

    /// A message with one int32 argument: address, `,i`, the value.
    mutating func appendMessage(_ address: String, int value: Int32) {
        appendString(address)
        appendString(",i")
        appendUInt32(UInt32(bitPattern: value))
    }

    /// A message with one string argument: address, `,s`, the string.
    mutating func appendMessage(_ address: String, string value: String) {
        appendString(address)
        appendString(",s")
        appendString(value)
    }

    /// Starts a bundle; each following message must be wrapped in `beginElement`/`endElement`.
    mutating func beginBundle(_ timetag: NTPTimetag) {
        appendString("#bundle")
        appendUInt32(timetag.seconds)
        appendUInt32(timetag.fraction)
    }

    /// Reserves the int32 size of a bundle element; `endElement` fills it in.
    mutating func beginElement() {
        elementStart = bytes.count
        appendUInt32(0)
    }

    mutating func endElement() {
        guard let start = elementStart else { return }
        let size = UInt32(bytes.count - start - 4)
        for index in 0..<4 { bytes[start + index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * index)) }
        elementStart = nil
    }

    private mutating func appendString(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        // At least one NUL, then up to a multiple of 4.
        repeat { bytes.append(0) } while bytes.count % 4 != 0
    }

    private mutating func appendUInt32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
}
