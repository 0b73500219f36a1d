import XCTest

@testable import RepeatedLiterals

final class RepeatedLiteralRewriterTests: XCTestCase {
    private static let token = "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkJFTkNIS0VZMDEifQ.eyJpc3MiOiJCRU5DSFRFQU0xIiwiaWF0IjoxNzY0MjM1NjQ1fQ.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmUtc2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU"

    /// A client's connection: the preface, SETTINGS, then each request as HEADERS (nghttp2's
    /// encoder: `authorization` never indexed, `:path` without) and a DATA frame.
    private func connection(_ requests: [(path: String, token: String)]) -> [UInt8] {
        let encoder = HeaderEncoder()
        var bytes = ClientBytes.preface + Frame(type: 0x4, flags: 0, streamID: 0, payload: []).bytes
        for (index, request) in requests.enumerated() {
            let block = encoder.encode([
                (":method", "POST"), (":scheme", "https"), (":authority", "127.0.0.1:9499"), (":path", request.path),
                ("authorization", request.token), ("apns-topic", "com.example.app"), ("content-length", "2"),
            ])
            let stream = UInt32(2 * index + 1)
            bytes += Frame(type: Frame.headers, flags: Frame.endHeaders, streamID: stream, payload: block).bytes
            bytes += Frame(type: 0x0, flags: 0x1, streamID: stream, payload: Array("{}".utf8)).bytes
        }
        return bytes
    }

    private func assertSameForNghttp2(_ original: [UInt8], _ rewritten: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Array(rewritten.prefix(24)), ClientBytes.preface, file: file, line: line)
        if let difference = ClientBytes.difference(Array(original.dropFirst(24)), Array(rewritten.dropFirst(24))) {
            XCTFail(difference, file: file, line: line)
        }
    }

    private func plainTokenCount(_ bytes: [UInt8], token: String = token) -> Int {
        let token = Array(token.utf8)
        return (0...(bytes.count - token.count)).filter { bytes[$0..<($0 + token.count)].elementsEqual(token) }.count
    }

    func testARepeatedTokenIsPassedDecodedFromItsSecondRequest() {
        let path = "/3/device/" + String(repeating: "be", count: 32)
        let input = connection(Array(repeating: (path, Self.token), count: 5))
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        assertSameForNghttp2(input, output)
        XCTAssertEqual(plainTokenCount(input), 0)
        XCTAssertEqual(plainTokenCount(output), 4)
        XCTAssertGreaterThan(output.count, input.count)
    }

    func testEveryWayOfCuttingTheInputDecodesTheSame() {
        let path = "/3/device/" + String(repeating: "be", count: 32)
        let input = connection(Array(repeating: (path, Self.token), count: 4))
        for size in [1, 2, 7, 8, 9, 10, 23, 24, 25, 33, 64, 100, 200, 333] {
            assertSameForNghttp2(input, ClientBytes.rewritten(input, pieces: [size]))
        }
        // Reads that hold whole frames are rewritten.
        XCTAssertEqual(plainTokenCount(ClientBytes.rewritten(input, pieces: [input.count])), 3)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let pieces = (0..<20).map { _ in Int.random(in: 1...300, using: &generator) }
            assertSameForNghttp2(input, ClientBytes.rewritten(input, pieces: pieces))
        }
    }

    func testAChangedTokenAndPathsThatChangeEveryRequest() {
        let newToken = Self.token.replacingOccurrences(of: "QU0x", with: "QU0y")
        var requests = (0..<4).map { ("/3/device/" + String(repeating: "a\($0)", count: 32), Self.token) }
        requests += (4..<8).map { ("/3/device/" + String(repeating: "b\($0)", count: 32), newToken) }
        let input = connection(requests)
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        assertSameForNghttp2(input, output)
        // Each token from its second request on; no path is repeated.
        XCTAssertEqual(plainTokenCount(output), 3)
        XCTAssertEqual(plainTokenCount(output, token: newToken), 3)
    }

    func testMoreRepeatedValuesInOneBlockThanAreRemembered() {
        // Four long never-indexed values, each twice in every block: all four are remembered in
        // the first block, the fourth in the first one's place while the block is being rewritten.
        let encoder = HeaderEncoder()
        var input = ClientBytes.preface
        let values = (0..<4).map { ("x-value-\($0)", String(repeating: "value \($0) ", count: 10)) }
        for stream in stride(from: UInt32(1), to: 8, by: 2) {
            let fields = (values + values).map { ("authorization", $0.1) }
            input += Frame(type: Frame.headers, flags: Frame.endHeaders, streamID: stream, payload: encoder.encode([(":method", "GET")] + fields)).bytes
        }
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        XCTAssertTrue(output != input, "nothing was rewritten")
        assertSameForNghttp2(input, output)
    }

    func testTheFrameSizeLimitHoldsForTheRewrittenFrame() {
        let input = connection(Array(repeating: ("/", Self.token), count: 3))
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        let rewrittenSize = Frame.split(Array(output.dropFirst(24))).frames.filter { $0.type == Frame.headers }.map(\.payload.count).max()!
        XCTAssertEqual(ClientBytes.rewritten(input, pieces: [input.count], maxFrameSize: rewrittenSize - 1), input)
        XCTAssertEqual(ClientBytes.rewritten(input, pieces: [input.count], maxFrameSize: rewrittenSize), output)
    }

    /// A header block that sends `value` twice, never indexed under `authorization`, Huffman-coded
    /// however long its code is (nghttp2's encoder codes a value only when that makes it shorter).
    private func blockWithCodedValueTwice(_ value: [UInt8]) -> [UInt8] {
        let field = [0x1F, 0x08] + ClientBytes.huffmanString(ClientBytes.huffmanEncoded(value))
        return [0x82] + field + field
    }

    func testAValueWhoseCodeIsLongerThanItsBytesShortensTheFrame() {
        // 40 bytes of 0xFF take 130 bytes of code.
        let block = blockWithCodedValueTwice([UInt8](repeating: 0xFF, count: 40))
        let input = ClientBytes.preface + (1...3).flatMap { Frame(type: Frame.headers, flags: Frame.endHeaders, streamID: UInt32(2 * $0 - 1), payload: block).bytes }
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        XCTAssertLessThan(output.count, input.count)
        assertSameForNghttp2(input, output)
    }

    func testAFrameOverTheLimitIsLeftAloneEvenWhenTheRewriteWouldBringItUnder() {
        let block = blockWithCodedValueTwice([UInt8](repeating: 0xFF, count: 40))
        let input = ClientBytes.preface + Frame(type: Frame.headers, flags: Frame.endHeaders, streamID: 1, payload: block).bytes
        // The second copy of the value is remembered and would shrink the frame by 91 bytes.
        XCTAssertEqual(ClientBytes.rewritten(input, pieces: [input.count], maxFrameSize: block.count - 10), input)
        XCTAssertLessThan(ClientBytes.rewritten(input, pieces: [input.count], maxFrameSize: block.count).count, input.count)
    }

    func testAPlainLengthThatNeedsOneByteMoreThanTheCodedLength() {
        // 130 digits: 82 bytes of code (a one-byte length), 130 plain (a two-byte length).
        let digits = String(repeating: "1", count: 130)
        let input = connection(Array(repeating: ("/", digits), count: 3))
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        assertSameForNghttp2(input, output)
        XCTAssertEqual(plainTokenCount(output, token: digits), 2)
    }

    func testValuesOfFewerThan32CodedBytesAreLeftToNghttp2() {
        // Digits take 5 bits each: 49 of them 31 bytes of code, 50 of them 32.
        for (count, rewritten) in [(49, 0), (50, 2)] {
            let digits = String(repeating: "1", count: count)
            let output = ClientBytes.rewritten(connection(Array(repeating: ("/", digits), count: 3)), pieces: [Int.max])
            XCTAssertEqual(plainTokenCount(output, token: digits), rewritten, "\(count) digits")
        }
    }

    func testAConnectionOfShortValuesIsLeftAloneAfterSixteenBlocks() {
        let path = "/3/device/" + String(repeating: "be", count: 32)
        let short = connection(Array(repeating: ("/", "bearer short"), count: 16))
        let long = connection(Array(repeating: (path, Self.token), count: 3)).dropFirst(24)
        let input = short + long
        XCTAssertEqual(ClientBytes.rewritten(input, pieces: [input.count]), input)
        // One block with a long value among the first sixteen keeps the connection looked at.
        let mixed = connection([(path, Self.token)] + Array(repeating: ("/", "bearer short"), count: 20)) + long
        let output = ClientBytes.rewritten(mixed, pieces: [mixed.count])
        assertSameForNghttp2(mixed, output)
        XCTAssertEqual(plainTokenCount(output), 3)
    }

    func testAFrameThatWouldNotFitTheScratchBufferIsLeftAlone() {
        let input = connection(Array(repeating: ("/", Self.token), count: 3))
        XCTAssertEqual(ClientBytes.rewritten(input, pieces: [input.count], scratchSize: input.count), input)
        // Room for the first rewritten frame only.
        let output = ClientBytes.rewritten(input, pieces: [input.count], scratchSize: input.count + 60)
        assertSameForNghttp2(input, output)
        XCTAssertEqual(plainTokenCount(output), 1)
    }

    func testPaddedContinuedAndMalformedFramesPassUnchanged() {
        let encoder = HeaderEncoder()
        var input = ClientBytes.preface
        for stream in stride(from: UInt32(1), to: 12, by: 2) {
            let block = encoder.encode([(":method", "GET"), (":path", "/"), ("authorization", Self.token)])
            // Padded; then cut into HEADERS and CONTINUATION; then cut short inside the token.
            input += Frame(type: Frame.headers, flags: Frame.endHeaders | 0x8, streamID: stream, payload: [2] + block + [0, 0]).bytes
            input += Frame(type: Frame.headers, flags: 0, streamID: stream + 100, payload: Array(block.prefix(5))).bytes
            input += Frame(type: Frame.continuation, flags: Frame.endHeaders, streamID: stream + 100, payload: Array(block.dropFirst(5))).bytes
        }
        let truncated = encoder.encode([("authorization", Self.token)])
        input += Frame(type: Frame.headers, flags: Frame.endHeaders, streamID: 201, payload: Array(truncated.dropLast(3))).bytes
        XCTAssertEqual(ClientBytes.rewritten(input, pieces: [input.count]), input)
    }

    func testPriorityFieldsAreKept() {
        let encoder = HeaderEncoder()
        var input = ClientBytes.preface
        for stream in stride(from: UInt32(1), to: 8, by: 2) {
            let block = encoder.encode([(":method", "GET"), (":path", "/"), ("authorization", Self.token)])
            input += Frame(type: Frame.headers, flags: Frame.endHeaders | 0x20, streamID: stream, payload: [0x80, 0, 0, 3, 15] + block).bytes
        }
        let output = ClientBytes.rewritten(input, pieces: [input.count])
        assertSameForNghttp2(input, output)
        XCTAssertEqual(plainTokenCount(output), 3)
    }
}
