#if canImport(Glibc)
import Glibc
#endif

/// One loop's access log: lines are buffered and written once per batch of events, so logging
/// costs one write per batch rather than one per request.
final class AccessLog {
    private let format: AccessLogFormat
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(format: AccessLogFormat, fd: Int32) {
        self.format = format
        self.fd = fd
        buffer.reserveCapacity(16_384)
    }

    func record(_ request: HTTPRequest, status: Int, bytes: Int, startedAt: UInt64) {
        let micros = (MonotonicClock.now() &- startedAt) / 1000
        let duration = "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())ms"
        let target = request.query.isEmpty ? request.path : request.path + "?" + request.query
        switch format {
        case .text:
            buffer += "\(request.remoteAddress) \"\(request.method) \(target) \(request.version.rawValue)\" \(status) \(bytes) \(duration)\n".utf8
        case .json:
            buffer += "{\"remote\":\(Self.quoted(request.remoteAddress)),\"method\":\(Self.quoted(request.method)),\"path\":\(Self.quoted(target)),\"protocol\":\"\(request.version.rawValue)\",\"status\":\(status),\"bytes\":\(bytes),\"durationMs\":\(Double(micros) / 1000)}\n".utf8
        }
        if buffer.count > 65_536 { flush() }
    }

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

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += "\\u00" + String(scalar.value, radix: 16).leftPadded
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension String {
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
