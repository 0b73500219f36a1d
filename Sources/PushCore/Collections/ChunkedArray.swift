/// An array kept as a list of chunks of at most `chunkCapacity` elements, one after another:
/// what the emulator stores per project and per device can hold every send of a long run, and
/// one array would copy all of it each time it doubled.
///
/// Appending is amortized O(1) and never copies more than one chunk; removing an element moves
/// at most a chunk's worth. Elements kept in an order (numbers, sequences) are found by
/// bisection with `partitioningIndex(where:)`. Positions are `Index` values (chunk and offset),
/// valid until an element is removed.
struct ChunkedArray<Element> {
    /// A position: the chunk and the place in it. The open chunk is number `sealed.count`;
    /// `endIndex` is the place after its last element.
    struct Index: Comparable, Hashable, Sendable {
        fileprivate var chunk: Int
        fileprivate var offset: Int

        static func < (lhs: Index, rhs: Index) -> Bool {
            (lhs.chunk, lhs.offset) < (rhs.chunk, rhs.offset)
        }
    }

    /// The chunks before the open one, none empty (a chunk emptied by removals is dropped).
    private var sealed: [[Element]] = []
    /// The chunk appends go to, apart from the others so that an append reaches it directly:
    /// every send appends to a few of these arrays. Empty only when the last append sealed it
    /// full or removals emptied it.
    private var open: [Element] = []
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
    ///
    /// Inlined: a send appends to three of these arrays (its delivery, its log entry, the device's
    /// queue), and a call would also pass a large element through memory. Sealing a full chunk,
    /// once every `chunkCapacity` appends, stays a call.
    @inline(__always)
    mutating func append(_ element: consuming Element) {
        if open.count >= chunkCapacity { sealOpenChunk() }
        open.append(element)
        count += 1
    }

    /// Moves the full open chunk to the sealed ones and starts an empty one.
    @inline(never)
    private mutating func sealOpenChunk() {
        sealed.append(open)
        open = []
        open.reserveCapacity(chunkCapacity)
    }

    /// Inserts `element` at `index`; later elements move down within its chunk only (a chunk
    /// that goes over `chunkCapacity` is split in two).
    mutating func insert(_ element: consuming Element, at index: Index) {
        count += 1
        guard index.chunk < sealed.count else {
            open.insert(element, at: index.offset)
            if open.count > chunkCapacity {
                sealed.append(Array(open[..<(open.count / 2)]))
                open.removeFirst(open.count / 2)
            }
            return
        }
        sealed[index.chunk].insert(element, at: index.offset)
        if sealed[index.chunk].count > chunkCapacity {
            let chunk = sealed[index.chunk]
            sealed[index.chunk] = Array(chunk[..<(chunk.count / 2)])
            sealed.insert(Array(chunk[(chunk.count / 2)...]), at: index.chunk + 1)
        }
    }

    /// Removes and returns the element at `index`; later elements move up within its chunk only.
    @discardableResult
    mutating func remove(at index: Index) -> Element {
        count -= 1
        guard index.chunk < sealed.count else { return open.remove(at: index.offset) }
        let removed = sealed[index.chunk].remove(at: index.offset)
        if sealed[index.chunk].isEmpty { sealed.remove(at: index.chunk) }
        return removed
    }

    /// Removes the elements `shouldBeRemoved` accepts, keeping the others in order.
    mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        // A device's queue under Apple's store-one rule holds one push when the next comes: the
        // general partition cost more than the test itself.
        if sealed.isEmpty, open.count == 1 {
            if try shouldBeRemoved(open[0]) {
                open.removeAll(keepingCapacity: true)
                count = 0
            }
            return
        }
        // Empty parts are left alone: a mutation of an empty array first replaces the shared
        // empty storage with an allocation of its own (most queues have no sealed chunk).
        if !sealed.isEmpty {
            for chunk in sealed.indices { try sealed[chunk].removeAll(where: shouldBeRemoved) }
            // A closure, not `\.isEmpty`: a key path in this generic context was made anew on
            // every call (about 11,000 instructions, more than the rest of an APNs send's queueing).
            sealed.removeAll { $0.isEmpty }
        }
        if !open.isEmpty { try open.removeAll(where: shouldBeRemoved) }
        count = sealed.reduce(open.count) { $0 + $1.count }
    }

    /// Removes every element.
    mutating func removeAll() {
        sealed.removeAll()
        open.removeAll()
        count = 0
    }

    /// The first position whose element `isInSecondPart` accepts, or `endIndex`, found by
    /// bisection: the elements must be ordered so that every rejected one comes before every
    /// accepted one (`{ $0.number >= n }` over elements in number order).
    func partitioningIndex(where isInSecondPart: (Element) throws -> Bool) rethrows -> Index {
        // The first sealed chunk whose last element is accepted holds the answer; if none
        // does, the open chunk does (or the answer is the end).
        var low = 0
        var high = sealed.count
        while low < high {
            let middle = (low + high) / 2
            if try isInSecondPart(sealed[middle][sealed[middle].count - 1]) { high = middle } else { low = middle + 1 }
        }
        let chunk = low
        low = 0
        high = chunk < sealed.count ? sealed[chunk].count - 1 : open.count
        while low < high {
            let middle = (low + high) / 2
            if try isInSecondPart(self[Index(chunk: chunk, offset: middle)]) { high = middle } else { low = middle + 1 }
        }
        return Index(chunk: chunk, offset: low)
    }

    /// How many elements each chunk holds, in order, the open one last if it holds any (for
    /// tests of the chunking).
    var chunkCounts: [Int] { sealed.map(\.count) + (open.isEmpty ? [] : [open.count]) }
}

extension ChunkedArray: BidirectionalCollection, MutableCollection {
    var startIndex: Index { Index(chunk: 0, offset: 0) }
    var endIndex: Index { Index(chunk: sealed.count, offset: open.count) }
    var isEmpty: Bool { count == 0 }

    func index(after index: Index) -> Index {
        guard index.chunk < sealed.count, index.offset + 1 == sealed[index.chunk].count else {
            return Index(chunk: index.chunk, offset: index.offset + 1)
        }
        return Index(chunk: index.chunk + 1, offset: 0)
    }

    func index(before index: Index) -> Index {
        index.offset > 0
            ? Index(chunk: index.chunk, offset: index.offset - 1)
            : Index(chunk: index.chunk - 1, offset: sealed[index.chunk - 1].count - 1)
    }

    /// The element at `index`, changed in place.
    subscript(index: Index) -> Element {
        get { index.chunk < sealed.count ? sealed[index.chunk][index.offset] : open[index.offset] }
        _modify {
            if index.chunk < sealed.count {
                yield &sealed[index.chunk][index.offset]
            } else {
                yield &open[index.offset]
            }
        }
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Equal when the elements are, however they are chunked.
    static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray.Index {
    /// The same position in a chunked array of other elements that has been changed alike (the
    /// same appends, inserts and removals at the same positions), and so is chunked alike.
    func position<Other>(in _: ChunkedArray<Other>.Type) -> ChunkedArray<Other>.Index {
        ChunkedArray<Other>.Index(chunk: chunk, offset: offset)
    }
}
