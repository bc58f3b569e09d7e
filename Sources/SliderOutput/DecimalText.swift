/// Fixed-decimal number text without Foundation and without printf (whose output follows LC_NUMERIC:
/// a German locale would print `0,50`, which breaks every consumer of the stream).
///
/// Rounding rule: **half away from zero, applied to the shortest decimal text that reads back as the
/// same Double** (Swift's `description`). So `0.125` → `0.13` and `1.005` → `1.01` — what a person
/// rounding the number as written gets — whereas printf rounds the exact binary value
/// (1.00499999999999989…) and prints `1.00`. A result that rounds to zero never carries a minus sign
/// (`-0.001` → `0.00`, never `-0.00`). Large magnitudes are written out in full (`1e20` →
/// `100000000000000000000.00`), never in exponent form. Non-finite values are `nan`, `inf`, `-inf`.
public enum DecimalText {
    /// The most decimals `fixed` accepts; a Double carries at most 17 significant digits anyway.
    public static let maximumDecimals = 17

    /// Appends `fixed(value, decimals:)` to `bytes`, allocating nothing (beyond `bytes` growing)
    /// unless the value lies within a hair of a rounding tie or is very large: then it takes
    /// `fixed`'s exact path. Everywhere else `value × 10^decimals` is far enough from a tie that
    /// rounding it as a binary number gives what rounding its shortest text gives.
    public static func append(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        let places = Swift.min(Swift.max(decimals, 0), maximumDecimals)
        let scaled = value.magnitude * powersOfTen[places]
        // Below 2^40 a product is exact to 2^-12, far inside the 10^-3 kept from a tie.
        if value.isFinite && scaled < 0x1p40 {
            let fraction = scaled - scaled.rounded(.down)
            if (fraction - 0.5).magnitude > 1e-3 {
                appendDigits(UInt64(scaled.rounded()), negative: value < 0, decimals: places, to: &bytes)
                return
            }
        }
        bytes.append(contentsOf: fixed(value, decimals: places).utf8)
    }

    /// `units` / 10^decimals as text: sign, integer part, point, exactly `decimals` digits.
    private static func appendDigits(_ units: UInt64, negative: Bool, decimals: Int, to bytes: inout [UInt8]) {
        if negative && units != 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits, least significant first, into a fixed scratch: at most 20 digits plus the padding.
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { digits in
            var count = 0
            var rest = units
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 || count <= decimals
            for index in stride(from: count - 1, through: 0, by: -1) {
                if index == decimals - 1 { bytes.append(UInt8(ascii: ".")) }
                bytes.append(digits[index])
            }
        }
    }

    private static let powersOfTen: [Double] = (0...maximumDecimals).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    /// `value` with exactly `decimals` digits after the point (none and no point when `decimals` is 0).
    /// `decimals` is clamped to `0...maximumDecimals`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let places = Swift.min(Swift.max(decimals, 0), maximumDecimals)
        var number = ShortestDigits(value.magnitude)
        number.round(toDecimals: places)
        let negative = value < 0 && !number.isZero
        return (negative ? "-" : "") + number.text(decimals: places)
    }
}

/// A non-negative decimal number as digits `d₀d₁d₂…` and an exponent: value = 0.d₀d₁d₂… × 10^pointPosition.
private struct ShortestDigits {
    var digits: [UInt8] = []
    var pointPosition = 0

    var isZero: Bool { digits.allSatisfy { $0 == 0 } }

    /// Parses Swift's shortest round-trip text of a finite, non-negative Double:
    /// `125.0`, `0.001`, `1e-05`, `1.2345e+16`, `5e-324`.
    init(_ magnitude: Double) {
        let text = magnitude.description.utf8
        var seenPoint = false
        var digitsBeforePoint = 0
        var exponent = 0
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            index = text.index(after: index)
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") {
                exponent = Int(String(decoding: text[index...], as: UTF8.self)) ?? 0
                break
            } else {
                digits.append(byte - UInt8(ascii: "0"))
                if !seenPoint { digitsBeforePoint += 1 }
            }
        }
        pointPosition = digitsBeforePoint + exponent
        trimLeadingZeros()
    }

    private mutating func trimLeadingZeros() {
        while let first = digits.first, first == 0, digits.count > 1 {
            digits.removeFirst()
            pointPosition -= 1
        }
    }

    /// Rounds half away from zero so that no digit remains beyond `decimals` places after the point.
    mutating func round(toDecimals decimals: Int) {
        let keep = pointPosition + decimals
        guard keep < digits.count else { return }
        guard keep >= 0 else {
            digits = [0]
            pointPosition = 1
            return
        }
        let roundUp = digits[keep] >= 5
        digits.removeSubrange(keep...)
        if roundUp { incrementLastDigit() }
        if digits.isEmpty { digits = [0]; pointPosition = 1 }
    }

    private mutating func incrementLastDigit() {
        var position = digits.count - 1
        while position >= 0 {
            if digits[position] < 9 {
                digits[position] += 1
                return
            }
            digits[position] = 0
            position -= 1
        }
        // Carried out of the first digit (e.g. 9.996 → 10.00), or there were no digits (0.5 → 1).
        digits.insert(1, at: 0)
        pointPosition += 1
    }

    /// The integer part (at least `0`), then `.` and exactly `decimals` digits when `decimals > 0`.
    func text(decimals: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Swift.max(pointPosition, 1) + decimals + 1)
        if pointPosition <= 0 { bytes.append(UInt8(ascii: "0")) }
        for position in 0..<Swift.max(pointPosition, 0) { bytes.append(asciiDigit(at: position)) }
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            for position in pointPosition..<(pointPosition + decimals) { bytes.append(asciiDigit(at: position)) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func asciiDigit(at position: Int) -> UInt8 {
        let digit = position >= 0 && position < digits.count ? digits[position] : 0
        return UInt8(ascii: "0") + digit
    }
}
