/// A short list kept inline: up to four elements without touching the heap, more (rare: a burst of
/// gesture phases within one frame) in an array. What a frame reports — its samples, its damaged
/// rectangles — fits inline, so drawing and emitting a frame allocates nothing.
///
/// Every member is inlinable, so that each module using it gets code specialized to its element
/// (unspecialized generic code would box elements on the heap).
public struct SmallList<Element>: RandomAccessCollection, MutableCollection {
    /// An inline array, not a tuple: an element is reached by its index, where a tuple's needed a
    /// `switch` (a jump table and four arms of code at every inlined use, on a frame's path).
    @usableFromInline var inline: InlineArray<4, Element?> = .init(repeating: nil)
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
            return position < 4 ? inline[position]! : overflow[position - 4]
        }
        set {
            precondition(position >= 0 && position < count, "SmallList index \(position) out of range 0..<\(count)")
            if position < 4 { inline[position] = newValue } else { overflow[position - 4] = newValue }
        }
    }

    /// The last element, if any. (Collection's own `last` copies the whole list first.)
    @inlinable
    public var last: Element? { storedCount == 0 ? nil : self[storedCount - 1] }

    /// Adds `element` at the end.
    @inlinable
    public mutating func append(_ element: Element) {
        if count < 4 { inline[count] = element } else { overflow.append(element) }
        storedCount += 1
    }

    /// Removes every element (keeping the overflow's capacity).
    @inlinable
    public mutating func removeAll() {
        inline = .init(repeating: nil)
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
            if storedCount <= 4 { inline[storedCount - 1] = nil } else { overflow.removeLast() }
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
