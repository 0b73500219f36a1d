import CNGHTTP2

/// The header block of an HTTP/2 response, laid out for `nghttp2_submit_response`.
enum HTTP2ResponseHead {
    /// Points nghttp2 name/value pairs at the headers' own bytes (minus connection-specific ones),
    /// with the values of `:status` and `content-length` laid out in a small temporary buffer
    /// and their names at their literals' static bytes; nghttp2 copies
    /// them during `body`, so nothing here outlives the call. Inlined so that `body`'s captures
    /// are not retained for each nested closure (a counted retain and release per request).
    @inline(__always)
    static func withNameValuePairs(
        status: Int, headers: HTTPHeaders, contentLength: Int?, _ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> Void
    ) {
        let statusText = status >= 100 && status <= 999 ? nil : String(status)
        // The values only: names point at their literals.
        let byteCount = (statusText?.utf8.count ?? 3) + (contentLength == nil ? 0 : 20)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { bytes in
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: headers.count + 2) { pairs in
                var writer = Writer(bytes: bytes, pairs: pairs)
                writer.append(name: ":status") { out in
                    if let statusText { return out.copy(statusText.utf8) }
                    out[0] = UInt8(ascii: "0") + UInt8(status / 100)
                    out[1] = UInt8(ascii: "0") + UInt8(status / 10 % 10)
                    out[2] = UInt8(ascii: "0") + UInt8(status % 10)
                    return 3
                }
                headers.withFieldBytes { fields in
                    for (name, value) in fields where !isConnectionSpecific(name) {
                        writer.appendInPlace(name: name, value: value)
                    }
                    if let contentLength {
                        writer.append(name: "content-length") { $0.writeDecimal(contentLength) }
                    }
                    body(UnsafeMutableBufferPointer(rebasing: pairs[..<writer.pairCount]))
                }
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

        /// Appends a pair whose value `writeValue` puts at the start of the buffer it gets,
        /// returning its length. The name is not copied: a literal's bytes stay put, and nghttp2
        /// only reads them.
        mutating func append(name: StaticString, _ writeValue: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
            let valueStart = byteCount
            byteCount += writeValue(UnsafeMutableBufferPointer(rebasing: bytes[byteCount...]))
            pairs[pairCount] = nghttp2_nv(
                name: UnsafeMutablePointer(mutating: name.utf8Start), value: bytes.baseAddress! + valueStart,
                namelen: name.utf8CodeUnitCount, valuelen: byteCount - valueStart, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
            )
            pairCount += 1
        }

        /// Appends a pair pointing at bytes that stay put until nghttp2 has copied them. A value of
        /// 32 bytes or more (an id, a date: new in each response) is sent without indexing: a
        /// table entry would never be used again, would push out the ones that are (the content
        /// type), and cost the encoder an insertion and evictions on every response.
        mutating func appendInPlace(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            pairs[pairCount] = nghttp2_nv(
                name: UnsafeMutablePointer(mutating: name.baseAddress), value: UnsafeMutablePointer(mutating: value.baseAddress),
                namelen: name.count, valuelen: value.count, flags: UInt8(value.count >= 32 ? NGHTTP2_NV_FLAG_NO_INDEX.rawValue : NGHTTP2_NV_FLAG_NONE.rawValue)
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
