import CNGHTTP2

/// The header block of an HTTP/2 response, laid out for `nghttp2_submit_response`.
enum HTTP2ResponseHead {
    /// Lays the response's header block out in `headBytes` (the values of `:status` and
    /// `content-length`, then a copy of the header fields minus connection-specific ones) and
    /// points nghttp2 name/value pairs at it, flagged so that nghttp2 reads them in place
    /// (`HTTP2HeadBytes`); the names of `:status` and `content-length` point at their literals'
    /// static bytes. The pairs themselves nghttp2 copies during `body`. Inlined so that `body`'s
    /// captures are not retained for each nested closure (a counted retain and release per request).
    @inline(__always)
    static func withNameValuePairs(
        status: Int, headers: HTTPHeaders, contentLength: Int?, headBytes: inout HTTP2HeadBytes, _ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> Void
    ) {
        let statusText = status >= 100 && status <= 999 ? nil : String(status)
        let valueByteCount = (statusText?.utf8.count ?? 3) + (contentLength == nil ? 0 : 20)
        headers.withFieldBytes { fields in
            // One copy of the fields as stored, which nghttp2 reads in place: less than nghttp2's
            // copy and lower-casing of each name and value.
            let room = headBytes.room(valueByteCount + fields.storage.count).bindMemory(to: UInt8.self)
            let copiedFields = UnsafeMutableBufferPointer(rebasing: room[valueByteCount...])
            if !copiedFields.isEmpty {
                UnsafeMutableRawBufferPointer(copiedFields).copyMemory(from: fields.storage)
            }
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: headers.count + 2) { pairs in
                var writer = Writer(bytes: UnsafeMutableBufferPointer(rebasing: room[..<valueByteCount]), pairs: pairs)
                writer.append(name: ":status") { out in
                    if let statusText { return out.copy(statusText.utf8) }
                    out[0] = UInt8(ascii: "0") + UInt8(status / 100)
                    out[1] = UInt8(ascii: "0") + UInt8(status / 10 % 10)
                    out[2] = UInt8(ascii: "0") + UInt8(status % 10)
                    return 3
                }
                for (name, value) in HTTPHeaderFieldBytes(storage: UnsafeRawBufferPointer(copiedFields)) where !isConnectionSpecific(name) {
                    writer.appendInPlace(name: name, value: value)
                }
                if let contentLength {
                    writer.append(name: "content-length") { $0.writeDecimal(contentLength) }
                }
                body(UnsafeMutableBufferPointer(rebasing: pairs[..<writer.pairCount]))
            }
        }
    }

    /// Headers that describe the HTTP/1.1 connection or framing; HTTP/2 forbids or replaces them.
    static func isConnectionSpecific(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        // The length first: most names are ruled out without comparing text.
        switch name.count {
        case 7: name.equals("upgrade")
        case 10: name.equals("connection") || name.equals("keep-alive")
        case 14: name.equals("content-length")
        case 16: name.equals("proxy-connection")
        case 17: name.equals("transfer-encoding")
        default: false
        }
    }

    private struct Writer {
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let pairs: UnsafeMutableBufferPointer<nghttp2_nv>
        var byteCount = 0
        var pairCount = 0
        /// nghttp2 reads the name and value where they are (names stored lower-cased already).
        static let inPlace = UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)

        /// Appends a pair whose value `writeValue` puts at the start of the buffer it gets (in the
        /// stream's `HTTP2HeadBytes`), returning its length. The name is a literal's bytes, which
        /// stay put.
        mutating func append(name: StaticString, _ writeValue: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
            let valueStart = byteCount
            byteCount += writeValue(UnsafeMutableBufferPointer(rebasing: bytes[byteCount...]))
            pairs[pairCount] = nghttp2_nv(
                name: UnsafeMutablePointer(mutating: name.utf8Start), value: bytes.baseAddress! + valueStart,
                namelen: name.utf8CodeUnitCount, valuelen: byteCount - valueStart, flags: Self.inPlace
            )
            pairCount += 1
        }

        /// Appends a pair pointing at bytes in the stream's `HTTP2HeadBytes`. A value of
        /// 32 bytes or more (an id, a date: new in each response) is sent without indexing: a
        /// table entry would never be used again, would push out the ones that are (the content
        /// type), and cost the encoder an insertion and evictions on every response.
        mutating func appendInPlace(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            let indexed = value.count < 32
            pairs[pairCount] = nghttp2_nv(
                name: UnsafeMutablePointer(mutating: name.baseAddress), value: UnsafeMutablePointer(mutating: value.baseAddress),
                namelen: name.count, valuelen: value.count,
                flags: Self.inPlace | (indexed ? 0 : UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue))
            )
            pairCount += 1
        }
    }
}

extension UnsafeMutableBufferPointer<UInt8> {
    /// Copies the bytes to the start of the buffer; returns how many.
    fileprivate func copy(_ source: String.UTF8View) -> Int {
        // One block copy where the string has contiguous bytes (nearly always), not a byte-by-byte walk.
        source.withContiguousStorageIfAvailable { bytes in
            guard let from = bytes.baseAddress, let to = baseAddress else { return 0 }
            to.initialize(from: from, count: bytes.count)
            return bytes.count
        } ?? initialize(from: source).1
    }

    /// Writes a non-negative number in decimal at the start of the buffer; returns how many digits.
    fileprivate func writeDecimal(_ value: Int) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var remaining = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            self[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        return digits
    }
}
