/// The fields of an `HTTPHeaders` as bytes in place: each name and value points into its storage,
/// so they are valid only while that storage is borrowed.
struct HTTPHeaderFieldBytes: Sequence {
    /// Every field starts with its name's and value's lengths, four bytes each, little-endian.
    static let lengthsSize = 8

    let storage: UnsafeRawBufferPointer

    func makeIterator() -> Iterator {
        Iterator(storage: storage)
    }

    struct Iterator: IteratorProtocol {
        let storage: UnsafeRawBufferPointer
        var offset = 0

        mutating func next() -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)? {
            guard offset < storage.count, let base = storage.baseAddress else { return nil }
            let nameCount = Int(UInt32(littleEndian: storage.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            let valueCount = Int(UInt32(littleEndian: storage.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
            let name = (base + offset + HTTPHeaderFieldBytes.lengthsSize).assumingMemoryBound(to: UInt8.self)
            offset += HTTPHeaderFieldBytes.lengthsSize + nameCount + valueCount
            return (UnsafeBufferPointer(start: name, count: nameCount), UnsafeBufferPointer(start: name + nameCount, count: valueCount))
        }
    }
}
