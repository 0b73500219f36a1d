/// A client for the server's own `GET /healthz`, for container health checks that should not need
/// curl in the image (`push-emulator healthcheck`).
public enum HealthProbe {
    /// nil when `http://host:port/healthz` answers `200` within `timeoutSeconds`, else why not.
    public static func problem(host: String, port: UInt16, timeoutSeconds: Int = 5) -> String? {
        do throws(SystemError) {
            let fd = try Socket.connect(host: host, port: port, timeoutSeconds: timeoutSeconds)
            defer { Socket.close(fd) }
            let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
            var sent = 0
            while sent < request.count {
                // Through a `Result`: the buffer closures rethrow untyped errors.
                let result = try request.withUnsafeBytes { bytes in
                    Result { () throws(SystemError) in try Socket.write(fd, from: UnsafeRawBufferPointer(rebasing: bytes[sent...])) }
                }.get()
                guard case .done(let count) = result else { return "no answer within \(timeoutSeconds) s" }
                sent += count
            }
            // The status line is all that is read.
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while answer.count < 12 {
                let result = try buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(SystemError) in try Socket.read(fd, into: bytes) }
                }.get()
                guard case .done(let count) = result else { return "no answer within \(timeoutSeconds) s" }
                if count == 0 { break }
                answer += buffer[..<count]
            }
            guard answer.starts(with: Array("HTTP/1.1 200".utf8)) else {
                return "GET /healthz answered \"\(String(decoding: answer.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self))\""
            }
            return nil
        } catch {
            return error.description
        }
    }
}
