import Testing
@testable import HTTPServer

@Suite struct HTTP2HeadBytesTests {
    @Test func roomIsReusedWhileItFits() {
        var bytes = HTTP2HeadBytes()
        let first = bytes.room(100).baseAddress
        #expect(bytes.room(200).baseAddress == first)
        #expect(bytes.room(150).baseAddress == first)
        #expect(bytes.byteCount == 256)
    }

    @Test func roomGrowsForALargeBlock() {
        var bytes = HTTP2HeadBytes()
        #expect(bytes.room(30_000).count == 30_000)
        #expect(bytes.byteCount == 30_000)
        #expect(bytes.room(100).count == 100)
    }
}
