extension HTTPHeaders {
    /// Iterates the fields in order, making each name's and value's `String` as it goes.
    public struct Iterator: IteratorProtocol {
        private let storage: [UInt8]
        private var offset = 0

        init(storage: [UInt8]) {
            self.storage = storage
        }

        /// The next field, names lower-cased.
        public mutating func next() -> (name: String, value: String)? {
            let start = offset
            let next: (field: (name: String, value: String), end: Int)? = storage.withUnsafeBytes { bytes in
                var fields = HTTPHeaderFieldBytes.Iterator(storage: bytes, offset: start)
                guard let field = fields.next() else { return nil }
                return ((String(decoding: field.name, as: UTF8.self), String(decoding: field.value, as: UTF8.self)), fields.offset)
            }
            guard let next else { return nil }
            offset = next.end
            return next.field
        }
    }
}
