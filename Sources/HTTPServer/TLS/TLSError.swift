import COpenSSL

/// A failure in OpenSSL, with the library's own error text.
public struct TLSError: Error, CustomStringConvertible, Sendable {
    /// What was being done, and OpenSSL's error queue.
    public let description: String

    init(_ what: String) {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            messages.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        description = messages.isEmpty ? what : "\(what): \(messages.joined(separator: "; "))"
    }
}
