/// A stream's copy of its response's header names and values, which nghttp2 reads in place when
/// it encodes the HEADERS frame: the pairs are submitted with `NGHTTP2_NV_FLAG_NO_COPY_NAME` and
/// `NO_COPY_VALUE`, which spares nghttp2 copying and lower-casing each name and value
/// (docs/performance.md).
///
/// nghttp2 reads these bytes in one place only: when it takes the HEADERS off its queue to send
/// it, after checking that the stream is still open. A stream reset or ended by GOAWAY is
/// reported closed first (and may be freed then), but its queued HEADERS is then dropped
/// unread. nghttp2 documents the bytes as needed until `on_frame_send_callback` or
/// `on_frame_not_send_callback`; the second would hand over a dropped frame's pointers into
/// memory that may be gone, so this server must not register it without keeping these bytes
/// alive that long.
struct HTTP2HeadBytes: ~Copyable {
    private var bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init() {}

    /// How many bytes are held.
    var byteCount: Int { bytes.count }

    /// Room for `count` bytes, at the start of the memory: what an earlier call returned is
    /// overwritten, so call it once a response.
    mutating func room(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if bytes.count < count {
            bytes.deallocate()
            // At least 256 bytes, which hold most answers' header blocks.
            bytes = .allocate(byteCount: Swift.max(256, count), alignment: 1)
        }
        return UnsafeMutableRawBufferPointer(rebasing: bytes[..<count])
    }

    deinit {
        bytes.deallocate()
    }
}
