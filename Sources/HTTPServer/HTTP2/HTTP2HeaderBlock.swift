/// The header block an `HTTP2Handler` is receiving. HTTP/2 sends a block's frames back to back
/// (HEADERS, then CONTINUATION), so one block at a time is in flight on a connection; its fields
/// gather here, in `HTTPHeaders`' byte layout, and move to the stream in one piece when the block
/// ends: growing each stream's own header list field by field cost more than twice as much.
///
/// A class the handler holds in a `let`: as a struct in a `var` of the handler, every header
/// field's `append` was a modifying access of that property around a call, so Swift checked
/// exclusivity at run time on every use of it (about a thousand instructions a request).
final class HTTP2HeaderBlock {
    /// The stream whose block this is; nil when no stream takes it (nothing is gathered then).
    /// Held strongly, so that a stream closed mid-block stays alive until the next `begin`.
    private(set) var stream: HTTP2Stream?
    /// Reused from block to block for the connection's lifetime.
    private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var used = 0
    private var count = 0

    /// Starts a block for `stream`, dropping whatever an unfinished block had gathered.
    func begin(_ stream: HTTP2Stream?) {
        self.stream = stream
        used = 0
        count = 0
    }

    /// Gathers a field whose name is lower-case already (HTTP/2 guarantees it). Callers bound the
    /// total with the header size limit.
    func append(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        let needed = HTTPHeaderFieldBytes.lengthsSize + name.count + value.count
        if buffer.count - used < needed { grow(to: used + needed) }
        let lengths = (UInt32(name.count).littleEndian, UInt32(value.count).littleEndian)
        withUnsafeBytes(of: lengths) { buffer.baseAddress!.advanced(by: used).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        used += HTTPHeaderFieldBytes.lengthsSize
        if let source = name.baseAddress { buffer.baseAddress!.advanced(by: used).copyMemory(from: source, byteCount: name.count) }
        used += name.count
        if let source = value.baseAddress { buffer.baseAddress!.advanced(by: used).copyMemory(from: source, byteCount: value.count) }
        used += value.count
        count += 1
    }

    /// Hands the block's fields to the stream's headers; `begin` then lets go of the stream.
    func finish(into headers: inout HTTPHeaders) {
        if count > 0 { headers.appendFields(UnsafeRawBufferPointer(rebasing: buffer[..<used]), count: count) }
    }

    deinit {
        buffer.deallocate()
    }

    private func grow(to minimum: Int) {
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(minimum, buffer.count * 2, 1024), alignment: 8)
        if used > 0 { grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: used) }
        buffer.deallocate()
        buffer = grown
    }
}
