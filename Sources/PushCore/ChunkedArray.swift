/// An array kept as a list of chunks of at most `chunkCapacity` elements, none empty, one after
/// another: what the emulator stores per project and per device can hold every send of a long
/// run, and one array would copy all of it each time it doubled.
///
/// Appending is amortized O(1) and never copies more than one chunk; removing an element moves
/// at most a chunk's worth. Elements kept in an order (numbers, sequences) are found by
/// bisection with `partitioningIndex(where:)`. Positions are `Index` values (chunk and offset),
/// valid until an element is removed.
struct ChunkedArray<Element> {
    /// A position: the chunk and the place in it. `endIndex` is one chunk past the last.
    struct Index: Comparable, Hashable, Sendable {
        fileprivate var chunk: Int
        fileprivate var offset: Int

        static func < (lhs: Index, rhs: Index) -> Bool {
            (lhs.chunk, lhs.offset) < (rhs.chunk, rhs.offset)
        }
    }

    /// The chunks in order; only the last is ever partly filled by appends, removals may leave
    /// others short, never empty.
    private var chunks: [[Element]] = []
    /// How many elements are stored (kept, not summed over the chunks).
    private(set) var count = 0
    /// Large enough that the chunks' own array stays small. The first chunk grows as an array
    /// does, so that a short array keeps no more room than it needs.
    let chunkCapacity: Int

    /// The chunk size the emulator's stores use.
    static var defaultChunkCapacity: Int { 4096 }

    /// An empty array whose chunks hold at most `chunkCapacity` elements.
    init(chunkCapacity: Int = defaultChunkCapacity) {
        precondition(chunkCapacity > 0, "a chunk holds at least one element")
        self.chunkCapacity = chunkCapacity
    }

    /// Adds `element` at the end.
    mutating func append(_ element: consuming Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= chunkCapacity {
            var chunk = [Element]()
            if !chunks.isEmpty { chunk.reserveCapacity(chunkCapacity) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Removes and returns the element at `index`; later elements move up within its chunk only.
    @discardableResult
    mutating func remove(at index: Index) -> Element {
        let removed = chunks[index.chunk].remove(at: index.offset)
        count -= 1
        if chunks[index.chunk].isEmpty { chunks.remove(at: index.chunk) }
        return removed
    }

    /// Removes the elements `shouldBeRemoved` accepts, keeping the others in order.
    mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        for chunk in chunks.indices { try chunks[chunk].removeAll(where: shouldBeRemoved) }
        chunks.removeAll(where: \.isEmpty)
        count = chunks.reduce(0) { $0 + $1.count }
    }

    /// Removes every element.
    mutating func removeAll() {
        chunks.removeAll()
        count = 0
    }

    /// The first position whose element `isInSecondPart` accepts, or `endIndex`, found by
    /// bisection: the elements must be ordered so that every rejected one comes before every
    /// accepted one (`{ $0.number >= n }` over elements in number order).
    func partitioningIndex(where isInSecondPart: (Element) throws -> Bool) rethrows -> Index {
        // The first chunk whose last element is accepted: the answer is in it.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if try isInSecondPart(chunks[middle][chunks[middle].count - 1]) { high = middle } else { low = middle + 1 }
        }
        guard low < chunks.count else { return endIndex }
        let chunk = low
        low = 0
        high = chunks[chunk].count - 1
        while low < high {
            let middle = (low + high) / 2
            if try isInSecondPart(chunks[chunk][middle]) { high = middle } else { low = middle + 1 }
        }
        return Index(chunk: chunk, offset: low)
    }

    /// How many elements each chunk holds, in order (for tests of the chunking).
    var chunkCounts: [Int] { chunks.map(\.count) }
}

extension ChunkedArray: BidirectionalCollection, MutableCollection {
    var startIndex: Index { Index(chunk: 0, offset: 0) }
    var endIndex: Index { Index(chunk: chunks.count, offset: 0) }
    var isEmpty: Bool { count == 0 }

    func index(after index: Index) -> Index {
        index.offset + 1 < chunks[index.chunk].count
            ? Index(chunk: index.chunk, offset: index.offset + 1)
            : Index(chunk: index.chunk + 1, offset: 0)
    }

    func index(before index: Index) -> Index {
        index.offset > 0
            ? Index(chunk: index.chunk, offset: index.offset - 1)
            : Index(chunk: index.chunk - 1, offset: chunks[index.chunk - 1].count - 1)
    }

    /// The element at `index`, changed in place.
    subscript(index: Index) -> Element {
        get { chunks[index.chunk][index.offset] }
        _modify { yield &chunks[index.chunk][index.offset] }
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Equal when the elements are, however they are chunked.
    static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
