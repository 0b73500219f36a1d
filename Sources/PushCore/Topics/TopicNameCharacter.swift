/// The characters FCM allows in a topic name, `[a-zA-Z0-9-_.~%]`, and the one rule for a whole
/// name, `[a-zA-Z0-9-_.~%]{1,900}`: every API that takes a topic (`message.topic`, conditions,
/// v1 subscriptions, Instance ID batches) checks it here. Analytics labels share the characters.
/// Kept free of other PushCore types so that the condition fuzzer can be built from a handful
/// of files.
enum TopicNameCharacter {
    /// The most bytes (all characters are ASCII) of a topic name.
    static let maximumNameLength = 900

    /// True for the bytes of `a-z A-Z 0-9 - _ . ~ %`.
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E, 0x7E, 0x25: true
        default: false
        }
    }

    /// True for `[a-zA-Z0-9-_.~%]{1,900}`.
    static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maximumNameLength && bytes.allSatisfy(isAllowed)
    }
}
