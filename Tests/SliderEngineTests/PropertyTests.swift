import PropertyBased
import Testing
@testable import SliderEngine

/// One step of a random session: an input or an outside command, after a pause.
enum Action: Sendable, CustomStringConvertible {
    case input(SliderInput)
    case setTarget(Double)
    case moveTarget(Double)

    var description: String {
        switch self {
        case .input(let i): "\(i)"
        case .setTarget(let v): "setTarget(\(v))"
        case .moveTarget(let v): "moveTarget(\(v))"
        }
    }
}

struct Step: Sendable, CustomStringConvertible {
    var pause: Double
    var action: Action
    var description: String { "+\(pause)s \(action)" }
}

let contacts: [Contact] = [.pointer, .touch(0), .touch(1), .touch(7)]
let keys = SliderKey.allCases
let oddNumbers: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300]

let stepGen = zip(Gen.int(in: 0...12), Gen.int(in: 0...3), Gen.double(in: -60...400),
                  Gen.double(in: -220...260), Gen.double(in: 0...0.4))
    .map { kind, which, a, b, pause -> Step in
        let p = SliderPoint(x: a, y: b)
        let contact = contacts[which]
        let action: Action = switch kind {
        case 0, 1: .input(.press(contact, p))
        case 2, 3, 4: .input(.move(contact, p))
        case 5: .input(.release(contact))
        case 6: .input(.cancel)
        case 7: .input(.key(keys[Int(abs(a)) % keys.count], isRepeat: which == 0))
        case 8: .input(.wheel(value120: Int(b), axis: which % 2 == 0 ? .vertical : .horizontal))
        case 9: .input(.scroll(pixels: b / 4, axis: .vertical))
        case 10: .setTarget(which == 3 ? oddNumbers[Int(abs(a)) % oddNumbers.count] : a / 3)
        case 11: .moveTarget(b / 10)
        default: .input(.move(contact, SliderPoint(x: .nan, y: b)))
        }
        return Step(pause: pause, action: action)
    }

let configurationGen = zip(Gen.int(in: 0...1), Gen.int(in: 0...1), Gen.int(in: 0...4))
    .map { glide, orientation, edge -> SliderConfiguration in
        var c = SliderConfiguration()
        c.glide = glide == 0 ? .curve : .spring
        c.orientation = orientation == 0 ? .horizontal : .vertical
        if edge == 1 { c.edge = c.orientation == .horizontal ? .top : .left }
        if edge == 2 { c.step = 3 }
        return c
    }

/// The steepest a glide may be: the whole range in the shortest glide at ease-in's steepest slope
/// (1/0.58), or a critically damped spring's peak speed (6.64/e per duration) — with a margin.
let maximumSpeed = 100 * 2.5 / 0.03

@Suite("Properties over random sessions")
struct PropertyTests {
    func apply(_ action: Action, to s: inout Slider, at t: Double) {
        switch action {
        case .input(let input): s.handle(input, at: t)
        case .setTarget(let v): try? s.setTarget(v, at: t)
        case .moveTarget(let d): try? s.moveTarget(by: d, at: t)
        }
    }

    @Test("value finite and in range, continuous at 48 kHz, no duplicate emissions, animations end")
    func randomSessions() async {
        await propertyCheck(count: 300, input: configurationGen, stepGen.array(of: 1...40)) { config, steps in
            var s = try! Slider(configuration: config, value: 40)
            var t = 0.0
            var emitted = Array(s.advance(to: 0).samples)
            let dt = 1.0 / 48_000
            for step in steps {
                // Frames and audio-rate checks during the pause.
                var u = t
                while u < t + step.pause {
                    let a = s.value(at: u), b = s.value(at: u + dt)
                    #expect(a.isFinite && a >= 0 && a <= 100, "value \(a) at \(u)")
                    #expect(abs(b - a) <= maximumSpeed * dt, "jump \(b - a) at \(u)")
                    emitted += s.advance(to: u).samples
                    u += 1.0 / 60
                }
                t += step.pause
                let before = s.value(at: t)
                apply(step.action, to: &s, at: t)
                let after = s.value(at: t + dt)
                #expect(abs(after - before) <= maximumSpeed * dt, "jump of \(after - before) at \(step)")
                #expect(s.target.isFinite && s.target >= 0 && s.target <= 100)
            }
            // Lift whatever is held, then everything must come to rest.
            s.handle(.cancel, at: t)
            var frames = 0
            while s.isAnimating(at: t) && frames < 600 {
                t += 1.0 / 60
                emitted += s.advance(to: t).samples
                frames += 1
            }
            #expect(!s.isAnimating(at: t), "still animating after 10 s")
            emitted += s.advance(to: t + 1).samples
            #expect(s.value(at: t + 1) == s.target, "rests exactly on the target")
            #expect(emitted.last?.value == s.target, "the last emitted value is the target")
            for (a, b) in zip(emitted, emitted.dropFirst()) {
                #expect(a != b || a.time != b.time, "duplicate emission \(a)")
                #expect(!(a.value == b.value && a.phase == b.phase), "duplicate consecutive value \(a) \(b)")
            }
        }
    }
}
