/// FCM registration tokens: generating realistic ones and telling well-formed ones apart.
public enum RegistrationToken {
    /// The characters of a generated token's two random parts (URL-safe base64).
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The longest token the emulator accepts; real tokens are about 163 characters, and the
    /// margin leaves room for FIDs and hand-written test tokens.
    public static let maximumLength = 4096

    /// A token shaped like the ones Firebase issues: `<22 chars>:APA91b<134 chars>`.
    public static func generate(using random: inout some RandomNumberGenerator) -> String {
        randomText(count: 22, using: &random) + ":APA91b" + randomText(count: 134, using: &random)
    }

    /// Whether `token` could be a registration token (or an FID): 1 to 4096 characters, each
    /// one of `A-Z a-z 0-9 _ - :`.
    ///
    /// Google's exact rule is not documented; this one accepts every real token and FID and
    /// hand-written ones such as `test-device-1`, and rejects what cannot be one (spaces,
    /// slashes, quotes, empty). In lenient mode a well-formed unknown token registers a device.
    public static func isWellFormed(_ token: String) -> Bool {
        guard !token.isEmpty, token.utf8.count <= maximumLength else { return false }
        return token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"):
                return true
            default:
                return false
            }
        }
    }

    private static func randomText(count: Int, using random: inout some RandomNumberGenerator) -> String {
        String((0..<count).map { _ in alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))] })
    }
}
