/// A stream's copy of its response's header names and values, which nghttp2 reads in place when
/// it encodes the HEADERS frame: the pairs are submitted with `NGHTTP2_NV_FLAG_NO_COPY_NAME` and
/// `NO_COPY_VALUE`, which spares nghttp2 copying and lower-casing each name and value
/// (docs/performance.md). nghttp2 encodes the frame, or drops it unread, before it reports the
/// stream closed, and a stream is reused or freed only after that; the memory is kept for the
/// stream's next exchange.
struct HTTP2HeadBytes: ~Copyable {
    private var bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init() {}

    /// Room for `count` bytes, at the start of the memory: what an earlier call returned is
    /// overwritten, so call it once a response.
    mutating func room(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if bytes.count < count {
            bytes.deallocate()
            // Twice what is asked, at least 256 bytes: a few growths over a stream's life at most.
            bytes = .allocate(byteCount: Swift.max(256, 2 * count), alignment: 1)
        }
        return UnsafeMutableRawBufferPointer(rebasing: bytes[..<count])
    }

    deinit {
        bytes.deallocate()
    }
}
