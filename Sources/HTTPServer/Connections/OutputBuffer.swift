/// Bytes waiting to be sent, read from the front. The read part is dropped once it is at least
/// half of what is held (and 64 KiB), so a reader that always stays a little behind keeps only
/// what it has not read, at an amortized cost of one copy per byte.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    private var start = 0
    /// Below this, read bytes are only dropped when everything has been read.
    private static let compactionFloor = 65_536
    /// An emptied buffer keeps at most this much capacity for the next bytes.
    private static let keptCapacity = 1_048_576

    /// Bytes not read yet.
    var count: Int { bytes.count - start }
    var isEmpty: Bool { start == bytes.count }

    mutating func append(_ more: UnsafeRawBufferPointer) {
        bytes += more
    }

    mutating func append(_ more: [UInt8]) {
        if bytes.isEmpty {
            // Taken as it is: a whole response body is usually its only content.
            bytes = more
        } else {
            bytes += more
        }
    }

    /// Runs `body` on the bytes not read yet.
    func withUnreadBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// Marks the first `count` unread bytes read.
    mutating func consume(_ count: Int) {
        start += count
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= Self.keptCapacity)
            start = 0
        } else if start >= Self.compactionFloor && start * 2 >= bytes.count {
            bytes.removeSubrange(..<start)
            start = 0
        }
    }

    /// Drops every byte and the storage.
    mutating func removeAll() {
        bytes = []
        start = 0
    }

    /// The bytes of storage held, read or not (for tests of the compaction).
    var storageCount: Int { bytes.count }
}
