/// A binary min-heap in an array: the smallest element is read at once, and inserting or
/// removing it costs O(log n).
struct MinHeap<Element: Comparable> {
    /// Each element is at most its children, those at `2i + 1` and `2i + 2`.
    private var elements: [Element] = []

    /// An empty heap.
    init() {}

    /// A heap of `elements`, built in O(n).
    init(_ elements: some Sequence<Element>) {
        self.elements = Array(elements)
        heapify()
    }

    /// How many elements it holds.
    var count: Int { elements.count }

    /// Whether it holds none.
    var isEmpty: Bool { elements.isEmpty }

    /// The smallest element, if any.
    var min: Element? { elements.first }

    /// Adds `element`.
    ///
    /// Inlined: every queued send inserts its expiry, and most stop after one comparison.
    @inline(__always)
    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        // Most elements arrive in order (expiries grow with the clock) and stop at once.
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element, if any.
    @discardableResult
    mutating func removeMin() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let smallest = elements.removeLast()
        siftDown(from: 0)
        return smallest
    }

    /// Removes the elements `shouldBeRemoved` accepts, in O(n).
    mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        try elements.removeAll(where: shouldBeRemoved)
        heapify()
    }

    private mutating func heapify() {
        for parent in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(from: parent) }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { return }
            let right = left + 1
            let smaller = right < elements.count && elements[right] < elements[left] ? right : left
            guard elements[smaller] < elements[parent] else { return }
            elements.swapAt(parent, smaller)
            parent = smaller
        }
    }
}

extension MinHeap: Sendable where Element: Sendable {}
