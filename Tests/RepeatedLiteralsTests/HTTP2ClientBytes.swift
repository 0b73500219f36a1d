// A client's side of HTTP/2 for the rewriter's tests and its fuzz target (scripts/fuzz-repeated-literals.sh
// compiles this file too): header blocks encoded and decoded by nghttp2's own HPACK coder, frames
// put together and taken apart, and HPACK's Huffman code written out bit by bit.
import CNGHTTP2
#if canImport(RepeatedLiterals)
@testable import RepeatedLiterals
#endif

/// A header field as nghttp2's decoder gives it: name, value and whether it is never indexed.
struct DecodedField: Equatable, CustomStringConvertible {
    var name: [UInt8]
    var value: [UInt8]
    var neverIndexed: Bool
    var description: String { "\(String(decoding: name, as: UTF8.self)): \(String(decoding: value, as: UTF8.self))\(neverIndexed ? " (never indexed)" : "")" }
}

/// nghttp2's HPACK encoder, which sends `authorization` never indexed and `:path` without indexing.
final class HeaderEncoder {
    private var deflater: OpaquePointer?
    init() { nghttp2_hd_deflate_new(&deflater, 4096) }
    deinit { nghttp2_hd_deflate_del(deflater) }

    func encode(_ fields: [(String, String)]) -> [UInt8] {
        // Each name and value copied into memory of its own, alive until nghttp2 has encoded them.
        let buffers = fields.flatMap { [Array($0.0.utf8), Array($0.1.utf8)] }.map { bytes -> UnsafeMutableBufferPointer<UInt8> in
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            _ = buffer.initialize(from: bytes)
            return UnsafeMutableBufferPointer(rebasing: buffer[..<bytes.count])
        }
        defer { buffers.forEach { UnsafeMutableBufferPointer(start: $0.baseAddress, count: max($0.count, 1)).deallocate() } }
        var nva = stride(from: 0, to: buffers.count, by: 2).map { index in
            nghttp2_nv(name: buffers[index].baseAddress!, value: buffers[index + 1].baseAddress!,
                       namelen: buffers[index].count, valuelen: buffers[index + 1].count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
        }
        let bound = nghttp2_hd_deflate_bound(deflater, &nva, nva.count)
        var block = [UInt8](repeating: 0, count: bound)
        let written = nghttp2_hd_deflate_hd(deflater, &block, bound, &nva, nva.count)
        precondition(written >= 0, "nghttp2_hd_deflate_hd failed: \(written)")
        return Array(block[..<written])
    }
}

/// nghttp2's HPACK decoder: one per connection, as its table carries over from block to block.
final class HeaderDecoder {
    private var inflater: OpaquePointer?
    private(set) var failed = false
    init() { nghttp2_hd_inflate_new(&inflater) }
    deinit { nghttp2_hd_inflate_del(inflater) }

    /// The block's fields, or nil (and from then on always nil) when nghttp2 finds it malformed.
    func decode(_ block: [UInt8]) -> [DecodedField]? {
        guard !failed else { return nil }
        var fields: [DecodedField] = []
        var offset = 0
        while true {
            var field = nghttp2_nv()
            var flags: Int32 = 0
            let consumed = block.withUnsafeBufferPointer { buffer in
                nghttp2_hd_inflate_hd2(inflater, &field, &flags, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, 1)
            }
            guard consumed >= 0 else {
                failed = true
                return nil
            }
            offset += consumed
            if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0 {
                fields.append(DecodedField(
                    name: Array(UnsafeBufferPointer(start: field.name, count: field.namelen)),
                    value: Array(UnsafeBufferPointer(start: field.value, count: field.valuelen)),
                    neverIndexed: field.flags & UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) != 0))
            }
            if flags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 {
                nghttp2_hd_inflate_end_headers(inflater)
                return fields
            }
            if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) == 0 && offset == block.count { return fields }
        }
    }
}

/// One HTTP/2 frame.
struct Frame: Equatable {
    static let headers: UInt8 = 0x1
    static let continuation: UInt8 = 0x9
    static let endHeaders: UInt8 = 0x4
    var type: UInt8
    var flags: UInt8
    var streamID: UInt32
    var payload: [UInt8]

    var bytes: [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(streamID >> 24), UInt8(streamID >> 16 & 0xFF), UInt8(streamID >> 8 & 0xFF), UInt8(streamID & 0xFF)] + payload
    }

    /// The part of a header block a HEADERS or CONTINUATION frame carries: without padding and
    /// priority fields; nil for other frames and for padding longer than the frame.
    var blockFragment: [UInt8]? {
        guard type == Self.headers || type == Self.continuation else { return nil }
        var (start, end) = (0, payload.count)
        if type == Self.headers && flags & 0x8 != 0 {
            guard let padding = payload.first else { return nil }
            (start, end) = (1, end - Int(padding))
        }
        if type == Self.headers && flags & 0x20 != 0 { start += 5 }
        return start <= end ? Array(payload[start..<end]) : nil
    }

    /// The frames of `bytes` (after the client's preface) and whatever bytes end them unframed.
    static func split(_ bytes: [UInt8]) -> (frames: [Frame], rest: [UInt8]) {
        var frames: [Frame] = []
        var offset = 0
        while bytes.count - offset >= 9 {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard bytes.count - offset - 9 >= length else { break }
            let streamID = UInt32(bytes[offset + 5]) << 24 | UInt32(bytes[offset + 6]) << 16 | UInt32(bytes[offset + 7]) << 8 | UInt32(bytes[offset + 8])
            frames.append(Frame(type: bytes[offset + 3], flags: bytes[offset + 4], streamID: streamID,
                                payload: Array(bytes[(offset + 9)..<(offset + 9 + length)])))
            offset += 9 + length
        }
        return (frames, Array(bytes[offset...]))
    }
}

enum ClientBytes {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// `input` through a new rewriter in pieces of the given sizes (the last repeated), joined again;
    /// the scratch buffer is twice the input unless `scratchSize` says otherwise.
    static func rewritten(_ input: [UInt8], pieces: [Int], maxFrameSize: Int = 16_384, scratchSize: Int? = nil) -> [UInt8] {
        var rewriter = RepeatedLiteralRewriter(maxFrameSize: maxFrameSize)
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: scratchSize ?? 2 * input.count, alignment: 1)
        defer { scratch.deallocate() }
        var output: [UInt8] = []
        var offset = 0
        var piece = 0
        while offset < input.count {
            let size = max(1, min(pieces[min(piece, pieces.count - 1)], input.count - offset))
            input[offset..<(offset + size)].withUnsafeBytes { chunk in
                rewriter.rewrite(chunk, scratch: scratch) { output += $0 }
            }
            offset += size
            piece += 1
        }
        return output
    }

    /// Where `original` and `rewritten` (each after the preface) differ for nghttp2: a description,
    /// or nil when every frame is the same, or a whole unpadded HEADERS frame that decodes to the
    /// same fields (or the same error) in nghttp2's decoder, and the same unframed bytes end both.
    /// A frame whose payload is over `maxFrameSize` before or after must not have changed: nghttp2
    /// refuses the one and would take the other.
    static func difference(_ original: [UInt8], _ rewritten: [UInt8], maxFrameSize: Int = 16_384) -> String? {
        let (before, beforeRest) = Frame.split(original)
        let (after, afterRest) = Frame.split(rewritten)
        guard before.count == after.count else { return "\(before.count) frames became \(after.count)" }
        guard beforeRest == afterRest else { return "the unframed end changed" }
        let (originalDecoder, rewrittenDecoder) = (HeaderDecoder(), HeaderDecoder())
        var (originalBlock, rewrittenBlock): ([UInt8], [UInt8]) = ([], [])
        for (index, (frame, changed)) in zip(before, after).enumerated() {
            let mayChange = frame.type == Frame.headers && frame.flags & Frame.endHeaders != 0 && frame.flags & 0x8 == 0
            guard frame == changed || (mayChange && frame.type == changed.type && frame.flags == changed.flags && frame.streamID == changed.streamID) else {
                return "frame \(index) changed"
            }
            guard frame == changed || max(frame.payload.count, changed.payload.count) <= maxFrameSize else {
                return "frame \(index) was changed though it is over the frame size limit before or after"
            }
            guard let fragment = frame.blockFragment, let changedFragment = changed.blockFragment else { continue }
            guard frame.payload.count - fragment.count == changed.payload.count - changedFragment.count,
                  frame.payload.prefix(frame.payload.count - fragment.count) == changed.payload.prefix(changed.payload.count - changedFragment.count)
            else { return "frame \(index)'s priority fields changed" }
            originalBlock += fragment
            rewrittenBlock += changedFragment
            guard frame.flags & Frame.endHeaders != 0 else { continue }
            let expected = originalDecoder.decode(originalBlock)
            let decoded = rewrittenDecoder.decode(rewrittenBlock)
            (originalBlock, rewrittenBlock) = ([], [])
            guard decoded == expected else {
                return "frame \(index) decodes to \(decoded.map { $0.map(\.description) } ?? ["an error"]), not \(expected.map { $0.map(\.description) } ?? ["an error"])"
            }
        }
        return nil
    }

    /// What nghttp2's decoder makes of `bytes` as a Huffman-coded value: its decoding, or nil for an error.
    static func nghttp2HuffmanDecode(_ bytes: [UInt8]) -> [UInt8]? {
        // A literal without indexing, with the new name "x".
        let block: [UInt8] = [0x00, 0x01, UInt8(ascii: "x")] + huffmanString(bytes)
        return HeaderDecoder().decode(block)?.first?.value
    }

    /// `coded` as an HPACK string literal: its length with the Huffman flag set, then the bytes.
    static func huffmanString(_ coded: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        HPACKInteger.appendStringLength(coded.count, to: &length)
        length[0] |= 0x80
        return length + coded
    }

    /// `text` in HPACK's Huffman code, the last byte padded with 1 bits.
    static func huffmanEncoded(_ text: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var bits: UInt64 = 0
        var count = 0
        for byte in text {
            let (code, length) = HuffmanDecoder.code(of: Int(byte))
            bits = bits << UInt64(length) | UInt64(code)
            count += length
            while count >= 8 {
                output.append(UInt8(truncatingIfNeeded: bits >> UInt64(count - 8)))
                count -= 8
            }
        }
        if count > 0 { output.append(UInt8(truncatingIfNeeded: bits << UInt64(8 - count)) | UInt8((1 << (8 - count)) - 1)) }
        return output
    }
}
