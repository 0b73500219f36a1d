/// The target of a `CONNECT`, read strictly as RFC 9112's authority-form (§3.2.3): `uri-host ":"
/// port`, nothing else. The host is a name of RFC 3986's reg-name characters (percent-encoding
/// included), or an IP literal in brackets; the port is required, 1 to 5 digits and at most
/// 65535. No userinfo, path or spaces. docs/interception.md says what a client gets otherwise.
struct ConnectAuthority {
    /// The host as written (brackets kept for an IP literal), not lower-cased.
    let host: String
    /// The port.
    let port: Int

    /// The authority of `target`, or nil when it is not in authority-form.
    init?(_ target: String) {
        let bytes = Array(target.utf8)
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let hostBytes = bytes[..<colon], portBytes = bytes[(colon + 1)...]
        guard (1...5).contains(portBytes.count), portBytes.allSatisfy(Self.isDigit) else { return nil }
        let port = portBytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard port <= 65535, Self.isHost(hostBytes) else { return nil }
        self.host = String(decoding: hostBytes, as: UTF8.self)
        self.port = port
    }

    /// An IP literal (`[` hex digits, `:` and `.` `]`, as IPv6 addresses and their IPv4 tails are
    /// written) or a reg-name (unreserved and sub-delims characters, `%` and two hex digits).
    private static func isHost(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count > 2, bytes.last == UInt8(ascii: "]") else { return false }
            return bytes.dropFirst().dropLast().allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isRegNameByte(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// RFC 3986's unreserved (letters, digits, `-._~`) and sub-delims (`!$&'()*+,;=`).
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || Array("-._~!$&'()*+,;=".utf8).contains(byte)
    }
}
