/// A short list kept inline: up to four elements without touching the heap, more (rare: a burst of
/// gesture phases within one frame) in an array. What a frame reports — its samples, its damaged
/// rectangles — fits inline, so drawing and emitting a frame allocates nothing.
///
/// Every member is inlinable, so that each module using it gets code specialized to its element
/// (unspecialized generic code would box elements on the heap).
public struct SmallList<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline var inline: (Element?, Element?, Element?, Element?) = (nil, nil, nil, nil)
    @usableFromInline var overflow: [Element] = []
    @usableFromInline var storedCount = 0

    /// How many elements it holds.
    @inlinable
    public var count: Int { storedCount }

    /// An empty list.
    @inlinable
    public init() {}

    @inlinable
    public var startIndex: Int { 0 }
    @inlinable
    public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "SmallList index \(position) out of range 0..<\(count)")
            switch position {
            case 0: return inline.0!
            case 1: return inline.1!
            case 2: return inline.2!
            case 3: return inline.3!
            default: return overflow[position - 4]
            }
        }
        set {
            precondition(position >= 0 && position < count, "SmallList index \(position) out of range 0..<\(count)")
            switch position {
            case 0: inline.0 = newValue
            case 1: inline.1 = newValue
            case 2: inline.2 = newValue
            case 3: inline.3 = newValue
            default: overflow[position - 4] = newValue
            }
        }
    }

    /// The last element, if any. (Collection's own `last` copies the whole list first.)
    @inlinable
    public var last: Element? { storedCount == 0 ? nil : self[storedCount - 1] }

    /// Adds `element` at the end.
    @inlinable
    public mutating func append(_ element: Element) {
        switch count {
        case 0: inline.0 = element
        case 1: inline.1 = element
        case 2: inline.2 = element
        case 3: inline.3 = element
        default: overflow.append(element)
        }
        storedCount += 1
    }

    /// Removes every element (keeping the overflow's capacity).
    @inlinable
    public mutating func removeAll() {
        inline = (nil, nil, nil, nil)
        overflow.removeAll(keepingCapacity: true)
        storedCount = 0
    }

    /// Keeps the elements for which `keep` holds, in order. In place, and without writing anything
    /// when every element is kept (a frame filters its samples with it, and keeps them all).
    @inlinable
    public mutating func retain(where keep: (Element) -> Bool) {
        var first = 0
        while first < count && keep(self[first]) { first += 1 }
        guard first < count else { return }
        var kept = first
        for index in (first + 1)..<count {
            let element = self[index]
            guard keep(element) else { continue }
            self[kept] = element
            kept += 1
        }
        removeLast(count - kept)
    }

    /// Removes the last `k` elements.
    @inlinable
    public mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "SmallList.removeLast(\(k)) of \(count) elements")
        for _ in 0..<k {
            switch storedCount - 1 {
            case 0: inline.0 = nil
            case 1: inline.1 = nil
            case 2: inline.2 = nil
            case 3: inline.3 = nil
            default: overflow.removeLast()
            }
            storedCount -= 1
        }
    }
}

extension SmallList: ExpressibleByArrayLiteral {
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init()
        for element in elements { append(element) }
    }
}

extension SmallList: Equatable where Element: Equatable {
    @inlinable
    public static func == (lhs: SmallList, rhs: SmallList) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

extension SmallList: Sendable where Element: Sendable {}

extension SmallList: CustomStringConvertible {
    public var description: String { "[" + map { "\($0)" }.joined(separator: ", ") + "]" }
}
