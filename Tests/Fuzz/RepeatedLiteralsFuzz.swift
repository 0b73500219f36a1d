// libFuzzer target for RepeatedLiteralRewriter and HuffmanDecoder, against nghttp2's own HPACK
// decoder. Built by scripts/fuzz-repeated-literals.sh with swiftc, from the RepeatedLiterals sources
// and the client helpers of its unit tests.
//
// The first byte chooses how the input is read and how it is cut into reads: even, the rest is a
// client's frames after the preface; odd, the rest is one header block sent in three HEADERS frames
// (flags from the first byte's bits), so that every value in it repeats. Other bits of the first byte
// lower the frame size limit and the scratch buffer's size. Either way the rewritten
// connection must decode, frame by frame, as the original does. The rest is also decoded as one
// Huffman-coded value by both decoders, which must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRepeatedLiterals(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0]
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var frames = rest
    if mode & 1 == 1 {
        let flags = Frame.endHeaders | (mode & 0x20) | (mode & 0x8)
        frames = (0..<3).flatMap { Frame(type: Frame.headers, flags: flags, streamID: UInt32(2 * $0 + 1), payload: rest).bytes }
    }
    let input = ClientBytes.preface + frames
    // Reads of 1 to 7 bytes too (cut frame headers), else of 8 to 127, or the whole input.
    let pieceSize = mode < 0x10 ? input.count : mode < 0x20 ? Int(mode & 0x7) + 1 : Int(mode >> 1)
    let maxFrameSize = mode & 0x40 != 0 ? 16_384 : 300
    for pieces in [[input.count], [pieceSize]] {
        let output = ClientBytes.rewritten(input, pieces: pieces, maxFrameSize: maxFrameSize,
                                           scratchSize: mode & 0x80 != 0 ? input.count + 64 : nil)
        precondition(output.prefix(24).elementsEqual(ClientBytes.preface), "the preface changed")
        if let difference = ClientBytes.difference(Array(input.dropFirst(24)), Array(output.dropFirst(24)), maxFrameSize: maxFrameSize) {
            fatalError("pieces \(pieces): \(difference)")
        }
    }
    let decoded = rest.withUnsafeBytes { HuffmanDecoder.decode($0) }
    precondition(decoded == ClientBytes.nghttp2HuffmanDecode(rest), "the Huffman decoders differ for \(rest)")
    return 0
}
