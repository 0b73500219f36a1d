/// The characters FCM allows in a topic name: `[a-zA-Z0-9-_.~%]`. Shared by `message.topic`,
/// topic conditions and analytics labels, and kept free of other PushCore types so that the
/// condition fuzzer can be built from a handful of files.
enum TopicNameCharacter {
    /// True for the bytes of `a-z A-Z 0-9 - _ . ~ %`.
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E, 0x7E, 0x25: true
        default: false
        }
    }

    /// True for `[a-zA-Z0-9-_.~%]+`.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isAllowed)
    }
}
