import SliderRender
import Testing

@Suite("Color")
struct ColorTests {
    @Test("parses #RRGGBB as opaque, in either case")
    func parsesSixDigits() {
        #expect(Color(hex: "#1a2B3c") == Color(red: 0x1A, green: 0x2B, blue: 0x3C, alpha: 0xFF))
        #expect(Color(hex: "#FFFFFF") == Color(red: 255, green: 255, blue: 255))
    }

    @Test("parses #RRGGBBAA")
    func parsesEightDigits() {
        #expect(Color(hex: "#00000000") == Color(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(Color(hex: "#0a84ff80") == Color(red: 0x0A, green: 0x84, blue: 0xFF, alpha: 0x80))
    }

    @Test("rejects anything else", arguments: [
        "", "#", "fff", "#fff", "#ffff", "123456", "#12345", "#1234567", "#123456789",
        "#12345g", "# 123456", "#123456 ", " #123456", "#ＦＦＦＦＦＦ", "##123456", "#-12345",
    ])
    func rejects(_ text: String) {
        #expect(Color(hex: text) == nil)
    }

    @Test("description round-trips through init?(hex:)")
    func roundTrips() {
        let color = Color(red: 0xFE, green: 0x01, blue: 0xA0, alpha: 0x7F)
        #expect(color.description == "#fe01a07f")
        #expect(Color(hex: color.description) == color)
    }

    @Test("premultiplies with rounding")
    func premultiplies() {
        #expect(Color(red: 255, green: 128, blue: 0, alpha: 255).premultipliedARGB == 0xFFFF_8000)
        #expect(Color(red: 255, green: 255, blue: 255, alpha: 128).premultipliedARGB == 0x8080_8080)
        #expect(Color(red: 200, green: 100, blue: 1, alpha: 0).premultipliedARGB == 0)
        // 100 * 51 / 255 = 20 exactly; 1 * 51 / 255 = 0.2 → 0.
        #expect(Color(red: 100, green: 1, blue: 255, alpha: 51).premultipliedARGB == 0x3314_0033)
    }
}
