#if canImport(Glibc)
import Glibc
#endif

/// One loop's access-log lines, waiting to be written: the loop writes them once per batch of
/// events (`flush`), so logging costs one write per batch rather than one per request.
///
/// `@unchecked Sendable` because swift-log wants its handlers Sendable; this is only ever used on
/// its loop's thread (each loop has its own `AccessLog`, logger and lines).
final class AccessLogLines: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(16_384)
    }

    /// Adds a line and its newline; writes out the buffer when it has grown large.
    func append(_ line: String) {
        buffer += line.utf8
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count > 65_536 { flush() }
    }

    /// Writes out every line buffered.
    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
