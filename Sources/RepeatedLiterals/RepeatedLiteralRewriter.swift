import ByteCoding

/// A client's HTTP/2 input on one connection, on its way to nghttp2, with the header values that the
/// client sends again and again in full handed over already decoded.
///
/// HPACK lets a client keep a field out of the decoder's table: nghttp2's encoder (curl, h2load) and
/// Python's h2 (aioapns) send `authorization` that way, never indexed, and nghttp2's also `:path`.
/// Such a value comes Huffman-coded in every request, and nghttp2 decodes it every time, a few
/// bits per table lookup: for a provider token that was a sixth of an APNs push's time
/// (docs/performance.md). Here, a value seen twice on a connection is decoded once and remembered;
/// from then on a HEADERS frame carrying the same coded bytes reaches nghttp2 with the plain bytes in
/// their place (the same representation with its Huffman flag clear, RFC 7541 §5.2) and its length
/// adjusted. The frame decodes to the same fields, with the same indexing: nghttp2 still checks
/// every name and value, and the decoder's table is untouched.
///
/// Everything else passes through unchanged, and so does any frame the rewrite cannot take whole:
/// one cut by the end of a read, padded, followed by CONTINUATION, malformed (nghttp2 reports it),
/// one over `maxFrameSize` already, or one that the plain bytes would take over it. A connection
/// whose first header blocks hold no value long enough to be worth it (a client of short tokens)
/// is left alone from then on, so that it pays nothing for the walk through its frames.
public struct RepeatedLiteralRewriter {
    /// A value that has come twice, with its decoding.
    private struct Remembered {
        var encoded: [UInt8]
        /// The decoding as an HPACK string literal without Huffman coding: its length, then its bytes.
        var plainString: [UInt8]

        init(encoded: [UInt8], decoded: [UInt8]) {
            self.encoded = encoded
            plainString = []
            HPACKInteger.appendStringLength(decoded.count, to: &plainString)
            plainString += decoded
        }
    }

    /// Values at least this long when coded are remembered: below it, decoding costs little.
    static let minimumEncodedLength = 32
    /// Values longer than this are left to nghttp2, which bounds the memory a connection keeps here.
    static let maximumEncodedLength = 4096
    /// At most this many remembered values (a provider token and a device's path, say).
    static let rememberedLimit = 3
    /// Header blocks without a value of `minimumEncodedLength` or more before the connection is left alone.
    static let blocksBeforeGivingUp = 16
    /// At most this many values seen once are kept to be recognised: enough for a request's few
    /// such fields, some of which (another device's path) come once only.
    static let seenOnceLimit = 4

    private static let frameHeaderLength = 9
    private static let headersType: UInt8 = 0x1
    private static let endHeadersFlag: UInt8 = 0x4
    private static let paddedFlag: UInt8 = 0x8
    private static let priorityFlag: UInt8 = 0x20

    /// The largest frame payload the server accepts (its SETTINGS_MAX_FRAME_SIZE).
    let maxFrameSize: Int
    /// Header blocks still to be looked at before the connection is left alone; nil once one held
    /// a value long enough, 0 when the connection is left alone.
    private var blocksLeftToLookAt: Int? = blocksBeforeGivingUp
    /// Bytes of the client's connection preface not yet passed.
    private var prefaceLeft = 24
    /// Bytes of the current frame that pass unchanged.
    private var passingLeft = 0
    /// The start of a frame header cut by the end of the last input.
    private var cutHeader: [UInt8] = []
    private var remembered: [Remembered] = []
    /// Which remembered value the next one replaces.
    private var nextReplaced = 0
    /// The coded bytes of the last values seen once and not remembered: the next that equals one is.
    private var seenOnce: [[UInt8]] = []
    /// Which value seen once the next one replaces.
    private var nextSeenOnceReplaced = 0
    /// The values of the frame being rewritten and the plain strings that replace them (taken when
    /// found: a value later in the same frame may take a remembered value's place).
    private var replacements: [(value: UnindexedHuffmanValue, plainString: [UInt8])] = []

    /// A rewriter for a new connection, whose input starts with the client's connection preface.
    public init(maxFrameSize: Int) {
        self.maxFrameSize = maxFrameSize
    }

    /// Passes `input`, the next bytes of the connection, to `body`: as they are, or with repeated
    /// values in their plain form, written into `scratch` (a frame that would not fit there is left
    /// as it is).
    public mutating func rewrite(_ input: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard blocksLeftToLookAt != 0 else { return body(input) }
        var written = 0
        var copiedUpTo = 0
        var position = min(prefaceLeft, input.count)
        prefaceLeft -= position
        while position < input.count && blocksLeftToLookAt != 0 {
            if passingLeft > 0 {
                let passed = min(passingLeft, input.count - position)
                position += passed
                passingLeft -= passed
                continue
            }
            if !cutHeader.isEmpty || input.count - position < Self.frameHeaderLength {
                let taken = min(Self.frameHeaderLength - cutHeader.count, input.count - position)
                cutHeader.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<(position + taken)]))
                position += taken
                if cutHeader.count == Self.frameHeaderLength {
                    passingLeft = cutHeader.withUnsafeBytes { Self.payloadLength(of: $0, at: 0) }
                    cutHeader = []
                }
                continue
            }
            let frameEnd = position + Self.frameHeaderLength + Self.payloadLength(of: input, at: position)
            guard frameEnd <= input.count else {
                passingLeft = frameEnd - input.count
                break
            }
            if input[position + 3] == Self.headersType, let growth = findReplacements(input, frameStart: position, frameEnd: frameEnd),
               written + input.count - copiedUpTo + growth <= scratch.count {
                Self.copy(input, copiedUpTo..<position, to: scratch, at: &written)
                writeFrame(input, frameStart: position, frameEnd: frameEnd, growth: growth, to: scratch, at: &written)
                copiedUpTo = frameEnd
            }
            position = frameEnd
        }
        guard copiedUpTo > 0 else { return body(input) }
        Self.copy(input, copiedUpTo..<input.count, to: scratch, at: &written)
        body(UnsafeRawBufferPointer(rebasing: scratch[..<written]))
    }

    /// `bytes[range]` copied to `output` at `offset`, which moves past them.
    private static func copy(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to output: UnsafeMutableRawBufferPointer, at offset: inout Int) {
        guard !range.isEmpty else { return }
        (output.baseAddress! + offset).copyMemory(from: bytes.baseAddress! + range.lowerBound, byteCount: range.count)
        offset += range.count
    }

    private static func payloadLength(of bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        Int(bytes[start]) << 16 | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2])
    }

    /// Fills `replacements` for the whole HEADERS frame at `frameStart` and answers by how many bytes
    /// they lengthen it; nil when it has none, or when the frame is over `maxFrameSize` before or after.
    private mutating func findReplacements(_ input: UnsafeRawBufferPointer, frameStart: Int, frameEnd: Int) -> Int? {
        let flags = input[frameStart + 4]
        let payloadLength = frameEnd - frameStart - Self.frameHeaderLength
        // A frame over the limit stays as it is, for nghttp2 to refuse: a rewrite may shorten it
        // (a value's Huffman code can be longer than its bytes).
        guard flags & Self.endHeadersFlag != 0, flags & Self.paddedFlag == 0, payloadLength <= maxFrameSize else { return nil }
        let blockStart = frameStart + Self.frameHeaderLength + (flags & Self.priorityFlag != 0 ? 5 : 0)
        // Most blocks are a few bytes of indexed fields: too short to hold a value worth the walk.
        guard frameEnd - blockStart >= Self.minimumEncodedLength + 2 else {
            countBlockWithoutValue()
            return nil
        }
        if !replacements.isEmpty { replacements.removeAll(keepingCapacity: true) }
        var growth = 0
        var hasValue = false
        var values = UnindexedHuffmanValues(in: input, from: blockStart, to: frameEnd)
        while let value = values.next() {
            guard value.encoded.count >= Self.minimumEncodedLength, value.encoded.count <= Self.maximumEncodedLength else { continue }
            hasValue = true
            guard let index = rememberedIndex(of: UnsafeRawBufferPointer(rebasing: input[value.encoded])) else { continue }
            let plainString = remembered[index].plainString
            growth += plainString.count - (value.encoded.upperBound - value.lengthStart)
            replacements.append((value, plainString))
        }
        if hasValue { blocksLeftToLookAt = nil } else { countBlockWithoutValue() }
        guard !values.isMalformed, !replacements.isEmpty, payloadLength + growth <= maxFrameSize else { return nil }
        return growth
    }

    private mutating func countBlockWithoutValue() {
        if let left = blocksLeftToLookAt { blocksLeftToLookAt = left - 1 }
    }

    /// The remembered value coded as `encoded`; one that comes the second time is remembered now.
    private mutating func rememberedIndex(of encoded: UnsafeRawBufferPointer) -> Int? {
        if let index = remembered.firstIndex(where: { $0.encoded.withUnsafeBytes { WordBytes.equal($0, encoded) } }) {
            return index
        }
        guard let seen = seenOnce.firstIndex(where: { $0.withUnsafeBytes { WordBytes.equal($0, encoded) } }) else {
            if seenOnce.count < Self.seenOnceLimit {
                seenOnce.append(Array(encoded))
            } else {
                seenOnce[nextSeenOnceReplaced] = Array(encoded)
                nextSeenOnceReplaced = (nextSeenOnceReplaced + 1) % Self.seenOnceLimit
            }
            return nil
        }
        // Invalid coding is left for nghttp2 to report.
        guard let decoded = HuffmanDecoder.decode(encoded) else { return nil }
        let entry = Remembered(encoded: seenOnce[seen], decoded: decoded)
        seenOnce[seen] = []
        guard remembered.count == Self.rememberedLimit else {
            remembered.append(entry)
            return remembered.count - 1
        }
        let index = nextReplaced
        remembered[index] = entry
        nextReplaced = (index + 1) % Self.rememberedLimit
        return index
    }

    /// The frame at `frameStart` with each of `replacements` in plain form, `growth` bytes longer,
    /// written to `output` at `offset`, which moves past it.
    private func writeFrame(_ input: UnsafeRawBufferPointer, frameStart: Int, frameEnd: Int, growth: Int,
                            to output: UnsafeMutableRawBufferPointer, at offset: inout Int) {
        let payloadLength = frameEnd - frameStart - Self.frameHeaderLength + growth
        output[offset] = UInt8(truncatingIfNeeded: payloadLength >> 16)
        output[offset + 1] = UInt8(truncatingIfNeeded: payloadLength >> 8)
        output[offset + 2] = UInt8(truncatingIfNeeded: payloadLength)
        offset += 3
        var copiedUpTo = frameStart + 3
        for (value, plainString) in replacements {
            Self.copy(input, copiedUpTo..<value.lengthStart, to: output, at: &offset)
            plainString.withUnsafeBytes { Self.copy($0, 0..<$0.count, to: output, at: &offset) }
            copiedUpTo = value.encoded.upperBound
        }
        Self.copy(input, copiedUpTo..<frameEnd, to: output, at: &offset)
    }
}
