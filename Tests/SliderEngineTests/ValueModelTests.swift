import Testing
@testable import SliderEngine

@Suite("Value model")
struct ValueModelTests {
    @Test("value ↔ position, horizontal: minimum at the left, both ways")
    func horizontalMapping() {
        let layout = makeSlider().layout
        #expect(layout.position(forFraction: 0) == 22)
        #expect(layout.position(forFraction: 1) == 298)
        for f in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(layout.fraction(forPosition: layout.position(forFraction: f)) - f) < 1e-12)
        }
        #expect(layout.fraction(forPosition: -50) == 0)
        #expect(layout.fraction(forPosition: 9999) == 1)
    }

    @Test("value ↔ position, vertical: minimum at the bottom, both ways")
    func verticalMapping() {
        let layout = makeSlider { $0.orientation = .vertical }.layout
        #expect(layout.size == SliderSize(width: 48, height: 320))
        #expect(layout.position(forFraction: 0) == 298)
        #expect(layout.position(forFraction: 1) == 22)
        #expect(abs(layout.fraction(forPosition: 160) - 0.5) < 1e-12)
        #expect(layout.fraction(forMovement: -27.6) > 0, "moving up raises a vertical slider")
    }

    @Test("the grown thumb stays inside the surface at both ends")
    func insetsKeepThumbInside() {
        for orientation in Orientation.allCases {
            var s = makeSlider(value: 0) { $0.orientation = orientation }
            s.handle(.press(.pointer, s.appearance(at: 0).thumbCenter), at: 0)
            let surface = SliderRect(x: 0, y: 0, width: s.layout.size.width, height: s.layout.size.height)
            for v in [0.0, 100.0] {
                try! s.setTarget(v, at: 1)
                let a = s.appearance(at: 2)
                #expect(a.thumbScale == 2)
                let bounds = s.layout.thumbBounds(center: a.thumbCenter, radius: a.thumbRadius)
                #expect(surface.intersection(bounds) == bounds, "\(orientation) at \(v)")
            }
        }
    }

    @Test("a surface thicker than the slider centres it across the axis")
    func centredInLargerSurface() {
        let s = makeSlider(size: SliderSize(width: 800, height: 600))
        let a = s.appearance(at: 0)
        #expect(a.thumbCenter.y == 300)
        #expect(a.visibleBand == SliderRect(x: 0, y: 276, width: 800, height: 48))
        #expect(a.track.midY == 300)
        #expect(s.layout.travel == 800 - 44)
    }

    @Test("non-finite or out-of-range configuration is refused with a message naming it")
    func invalidConfiguration() {
        func error(_ body: (inout SliderConfiguration) -> Void, value: Double? = nil) -> String {
            var c = SliderConfiguration()
            body(&c)
            do {
                _ = try Slider(configuration: c, value: value)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(error({ $0.maximum = $0.minimum }) == "the maximum (0) must be greater than the minimum (0)")
        #expect(error({ $0.minimum = .nan }) == "minimum must be a finite number")
        #expect(error({ _ in }, value: 150) == "value 150 is outside the range 0…100")
        #expect(error({ _ in }, value: .infinity) == "value must be a finite number")
        #expect(error({ $0.step = 0 }) == "step 0 must be > 0 and at most the range 100")
        #expect(error({ $0.thumbScale = 0.5 }) == "thumb scale 0.5 must be between 1 and 10")
        #expect(error({ $0.jumpDuration = -1 }) == "jump duration -1 must be between 0 and 60 seconds")
        #expect(error({ $0.scrubOffsets = [0, 50] }).hasPrefix("scrubbing: needs as many speeds (4) as offsets (2)"))
        #expect(error({ $0.scrubOffsets = [0, 50, 40, 150] }).hasPrefix("scrubbing: offsets must be finite and ascending"))
        #expect(error({ $0.edge = .left }) == "a slider at the left edge must be vertical, not horizontal")
    }

    @Test("outside targets are clamped into the range; non-finite ones are refused and change nothing")
    func externalTargets() throws {
        var s = makeSlider(value: 50)
        try s.setTarget(1000, at: 0)
        #expect(s.target == 100)
        try s.setTarget(-5, at: 0)
        #expect(s.target == 0)
        #expect(throws: SliderError.notFinite(.value)) { try s.setTarget(.nan, at: 0) }
        #expect(throws: SliderError.notFinite(.change)) { try s.moveTarget(by: -.infinity, at: 0) }
        #expect(s.target == 0)
    }

    @Test("with a step, every target lies on the grid, and the maximum stays reachable")
    func stepSnapping() throws {
        var s = makeSlider(value: 0) { $0.step = 7 }
        try s.setTarget(10, at: 0)
        #expect(s.target == 7)
        try s.setTarget(11, at: 0)
        #expect(s.target == 14)
        try s.setTarget(99.5, at: 0)
        #expect(s.target == 100, "98 is the last step, but 99.5 is nearer the maximum")
        try s.setTarget(98.9, at: 0)
        #expect(s.target == 98)
        try s.setTarget(100, at: 0)
        s.handle(.key(.decrement, isRepeat: false), at: 1)
        #expect(s.target == 98, "100 - 7 = 93 would be off the grid; keys move along it")
        s.handle(.key(.decrement, isRepeat: false), at: 1)
        #expect(s.target == 91)
        s.handle(.key(.increment, isRepeat: false), at: 1)
        s.handle(.key(.increment, isRepeat: false), at: 1)
        #expect(s.target == 100)
    }

    @Test("the range can change live; the value is clamped into the new range")
    func liveRange() throws {
        var s = makeSlider(value: 80)
        try s.setRange(minimum: 0, maximum: 50, at: 1)
        #expect(s.target == 50)
        #expect(s.value(at: 1) == 50)
        #expect(throws: SliderError.invalidRange(minimum: 10, maximum: 5)) { try s.setRange(minimum: 10, maximum: 5, at: 2) }
        #expect(s.configuration.maximum == 50)
        try s.setStep(20, at: 3)
        #expect(s.target == 50, "the maximum stays reachable off the grid")
        try s.setTarget(33, at: 4)
        #expect(s.target == 40)
        try s.setStep(nil, at: 5)
        try s.setTarget(33, at: 6)
        #expect(s.target == 33)
    }
}
