import ByteCoding
import COpenSSL

/// The users of an htpasswd file (`--ui-auth-file`, docs/inbox.md): lines of `user:hash`, as
/// Apache's `htpasswd` and `openssl passwd` write them, and the check of a user's password.
///
/// Two hashes are read: `$apr1$` (Apache's MD5 crypt, `htpasswd -m`, its default, or `openssl
/// passwd -apr1`) and `{SHA}` (`htpasswd -s`). bcrypt (`htpasswd -B`) and the others are refused
/// when the file is read, with the line and a way to write one that works: OpenSSL, which the
/// emulator links, has no bcrypt.
public struct HtpasswdUsers: Sendable {
    enum Hash: Sendable, Equatable {
        /// `$apr1$salt$digest`: the salt (at most 8 characters) and the 22-character digest.
        case apr1(salt: [UInt8], digest: [UInt8])
        /// `{SHA}` and the SHA-1 digest of the password.
        case sha1([UInt8])
    }

    private let hashes: [String: Hash]

    /// How many users the file names.
    public var count: Int { hashes.count }

    /// Reads the file's text. Blank lines and lines starting with `#` are skipped.
    public init(text: String) throws(HtpasswdError) {
        var hashes: [String: Hash] = [:]
        // "\r\n" is one Character in Swift: a file written on Windows splits on it too.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let number = index + 1
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw HtpasswdError(line: number, "expected user:hash")
            }
            let user = String(line[..<colon])
            let hash = try Self.hash(line[line.index(after: colon)...], line: number)
            guard hashes.updateValue(hash, forKey: user) == nil else {
                throw HtpasswdError(line: number, "user \(user) is named twice")
            }
        }
        guard !hashes.isEmpty else { throw HtpasswdError(line: 0, "the file names no user") }
        self.hashes = hashes
    }

    private static func hash(_ text: Substring, line: Int) throws(HtpasswdError) -> Hash {
        if text.hasPrefix("$apr1$") {
            let parts = text.dropFirst("$apr1$".count).split(separator: "$", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...8).contains(parts[0].utf8.count), parts[1].utf8.count == 22 else {
                throw HtpasswdError(line: line, "an $apr1$ hash is $apr1$SALT$DIGEST, a salt of 1 to 8 characters and 22 of digest")
            }
            return .apr1(salt: Array(parts[0].utf8), digest: Array(parts[1].utf8))
        }
        if text.hasPrefix("{SHA}") {
            guard let digest = Base64URL.decode(text.dropFirst("{SHA}".count), lenient: true), digest.count == 20 else {
                throw HtpasswdError(line: line, "a {SHA} hash is the base64 of a 20-byte SHA-1 digest")
            }
            return .sha1(digest)
        }
        let kind = text.hasPrefix("$2") ? "bcrypt hashes (htpasswd -B)" : "this kind of hash"
        throw HtpasswdError(
            line: line,
            "\(kind) cannot be read: write the line with `htpasswd -m` (or `openssl passwd -apr1`) or `htpasswd -s`")
    }

    /// Whether `password` is `user`'s. Compares digests in time that does not depend on where
    /// they differ.
    public func verify(user: String, password: [UInt8]) -> Bool {
        switch hashes[user] {
        case nil:
            // As long as a known user's check, so that the time of an answer does not tell which
            // user names exist.
            _ = Self.apr1(password: password, salt: Array("unknown".utf8))
            return false
        case .apr1(let salt, let digest)?:
            return Self.sameBytes(Self.apr1(password: password, salt: salt), digest)
        case .sha1(let digest)?:
            return Self.sameBytes(Self.digest(password, EVP_sha1()), digest)
        }
    }

    private static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }

    /// One digest of `bytes` with OpenSSL's `md`.
    static func digest(_ bytes: [UInt8], _ md: OpaquePointer?) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, md, nil)
        }
        precondition(done == 1, "OpenSSL could not compute a digest")
        return Array(output.prefix(Int(length)))
    }

    /// Apache's MD5 crypt (`apr_md5_encode`, the FreeBSD MD5 crypt with `$apr1$`): the 22
    /// characters after the salt.
    static func apr1(password: [UInt8], salt: [UInt8]) -> [UInt8] {
        let md5 = { (bytes: [UInt8]) in digest(bytes, EVP_md5()) }
        let alternate = md5(password + salt + password)
        var context = password + Array("$apr1$".utf8) + salt
        var remaining = password.count
        while remaining > 0 {
            context += alternate.prefix(min(remaining, 16))
            remaining -= 16
        }
        var bits = password.count
        while bits > 0 {
            context.append(bits & 1 == 1 ? 0 : password.first ?? 0)
            bits >>= 1
        }
        var final = md5(context)
        // A thousand rounds, to slow guessing down.
        for round in 0..<1000 {
            var step = round & 1 == 1 ? password : final
            if round % 3 != 0 { step += salt }
            if round % 7 != 0 { step += password }
            step += round & 1 == 1 ? final : password
            final = md5(step)
        }
        let alphabet = Array("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var output: [UInt8] = []
        func append(_ value: UInt32, _ count: Int) {
            var value = value
            for _ in 0..<count {
                output.append(alphabet[Int(value & 0x3f)])
                value >>= 6
            }
        }
        for (a, b, c) in [(0, 6, 12), (1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10, 5)] {
            append(UInt32(final[a]) << 16 | UInt32(final[b]) << 8 | UInt32(final[c]), 4)
        }
        append(UInt32(final[11]), 2)
        return output
    }
}

/// A line of an htpasswd file that cannot be used.
public struct HtpasswdError: Error, CustomStringConvertible {
    /// The line's number (1 for the first; 0 for the file as a whole).
    public let line: Int
    /// What is wrong with it.
    public let message: String

    init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`, or the message alone for the file as a whole.
    public var description: String { line == 0 ? message : "line \(line): \(message)" }
}
