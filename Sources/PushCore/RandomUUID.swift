/// Random (version 4) UUIDs in canonical lowercase form, used for generated `apns-id`s.
public enum RandomUUID {
    /// A new UUID such as `6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6f`.
    public static func make(using random: inout some RandomNumberGenerator) -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Array("0123456789abcdef")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return text
    }
}
