/// The forms of an Android app's package name and a web app's origin (docs/android.md, docs/web.md).
enum AppIdentifiers {
    /// Two or more parts joined by dots, each an ASCII letter then letters, digits or `_`, as
    /// Android's `applicationId` is (`com.example.app`).
    static func isPackageName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.first, isLetter(first) else { return false }
            return part.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
        }
    }

    /// `http://` or `https://`, a host of letters, digits, `-` and `.` (or a bracketed IPv6
    /// address), an optional port, and nothing after: what a browser's `location.origin` gives.
    static func isWebOrigin(_ origin: String) -> Bool {
        let bytes = Array(origin.utf8)
        let rest: ArraySlice<UInt8>
        if bytes.starts(with: "https://".utf8) {
            rest = bytes[8...]
        } else if bytes.starts(with: "http://".utf8) {
            rest = bytes[7...]
        } else {
            return false
        }
        var host = rest
        var port: ArraySlice<UInt8> = []
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let address = rest[(rest.startIndex + 1)..<close]
            guard !address.isEmpty, address.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                return false
            }
            let after = rest[(close + 1)...]
            guard after.isEmpty || after.first == UInt8(ascii: ":") else { return false }
            port = after.dropFirst()
            if after.first == UInt8(ascii: ":"), port.isEmpty { return false }
        } else {
            if let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
                host = rest[..<colon]
                port = rest[(colon + 1)...]
                if port.isEmpty { return false }
            }
            guard !host.isEmpty, host.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return false }
        }
        // A port from 1 to 65535, written without leading zeros, as `location.origin` writes it.
        guard !port.isEmpty else { return true }
        guard port.count <= 5, port.first != UInt8(ascii: "0"), port.allSatisfy(isDigit) else { return false }
        return Int(String(decoding: port, as: UTF8.self))! <= 65535
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
