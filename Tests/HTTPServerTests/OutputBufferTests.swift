import Testing
@testable import HTTPServer

@Suite struct OutputBufferTests {
    private func unread(_ buffer: OutputBuffer) -> [UInt8] {
        buffer.withUnreadBytes { Array($0) }
    }

    @Test func readsInTheOrderWritten() {
        var buffer = OutputBuffer()
        buffer.append([1, 2, 3])
        [UInt8]([4, 5]).withUnsafeBytes { buffer.append($0) }
        buffer.consume(2)
        #expect(unread(buffer) == [3, 4, 5])
        buffer.consume(3)
        #expect(buffer.isEmpty)
        #expect(buffer.storageCount == 0)
    }

    /// A reader that stays a little behind: 10 MiB go through, never more than ~8 KiB unread,
    /// and the storage stays near the compaction floor instead of growing with all bytes written.
    @Test func aReaderThatStaysBehindKeepsOnlyWhatItHasNotRead() {
        var buffer = OutputBuffer()
        var written: UInt8 = 0
        var read: UInt8 = 0
        var largestStorage = 0
        for _ in 0..<2_560 {
            buffer.append((0..<4_096).map { _ in written &+= 1; return written })
            let bytes = Array(unread(buffer).prefix(buffer.count > 8_192 ? 4_096 : 2_048))
            let expected = bytes.map { _ in read &+= 1; return read }
            if bytes != expected { Issue.record("bytes out of order after \(read)") }
            buffer.consume(bytes.count)
            largestStorage = max(largestStorage, buffer.storageCount)
        }
        #expect(largestStorage < 4 * 65_536)
    }
}
