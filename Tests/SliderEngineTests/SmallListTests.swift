// SmallList, the inline list a frame's samples and damage travel in: it must behave as an array
// does, across the inline/overflow boundary.
import Testing
@testable import SliderEngine

@Suite("SmallList")
struct SmallListTests {
    @Test("append, subscript and retain agree with an array, for 0 to 10 elements and any predicate")
    func agreesWithArray() {
        var random = SystemRandomNumberGenerator()
        for count in 0...10 {
            for _ in 0..<50 {
                let values = (0..<count).map { _ in Int.random(in: 0..<6, using: &random) }
                var list = SmallList<Int>()
                for v in values { list.append(v) }
                #expect(Array(list) == values)
                #expect(list.last == values.last)
                let threshold = Int.random(in: 0...6, using: &random)
                list.retain { $0 >= threshold }
                let kept = values.filter { $0 >= threshold }
                #expect(Array(list) == kept, "\(values) ≥ \(threshold)")
                #expect(list.count == kept.count)
                #expect(list.last == kept.last)
                // What retain dropped is gone: appending after it continues from the kept ones.
                list.append(99)
                #expect(Array(list) == kept + [99])
            }
        }
    }

    @Test("retain releases the elements it drops")
    func retainReleases() {
        final class Token {}
        weak var dropped: Token?
        var list = SmallList<Token>()
        do {
            let tokens = (0..<6).map { _ in Token() }
            dropped = tokens[5]
            for t in tokens { list.append(t) }
        }
        list.retain { $0 !== dropped }
        #expect(dropped == nil && list.count == 5)
    }
}
