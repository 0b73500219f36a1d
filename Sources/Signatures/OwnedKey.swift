import COpenSSL

/// One OpenSSL `EVP_PKEY`, freed with its last owner.
///
/// `@unchecked Sendable`: the key is never changed after it is made, and OpenSSL 3 allows a key
/// to be used for signing and verifying from several threads at once (each call brings its own
/// `EVP_MD_CTX`).
final class OwnedKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Reads a key from PEM: a private key (PKCS#8, as Apple's .p8 files, or SEC1) or a public key
    /// (`SubjectPublicKeyInfo`), refusing any that is not on P-256. An encrypted private key is
    /// unreadable (there is no passphrase to give).
    static func read(pem: String) throws(ES256KeyError) -> (key: OwnedKey, isPrivate: Bool) {
        let read: (key: OwnedKey, isPrivate: Bool)
        switch readAnyType(pem: pem) {
        case .notPEM: throw .notPEM
        case .unreadable: throw .unreadable
        case .key(let key, let isPrivate): read = (key, isPrivate)
        }
        guard read.key.isP256 else { throw .notP256 }
        return read
    }

    /// What `readAnyType(pem:)` found.
    enum PEMReading {
        /// No private key, public key or certificate block.
        case notPEM
        /// A block OpenSSL cannot read a key from (damaged, or encrypted).
        case unreadable
        /// The key, and whether it is a private one.
        case key(OwnedKey, isPrivate: Bool)
    }

    /// Reads a key of any type from PEM: a private key (PKCS#8, or a type's own older form), a
    /// public key (`SubjectPublicKeyInfo`) or a certificate (its subject's public key). An
    /// encrypted private key is unreadable (there is no passphrase to give).
    static func readAnyType(pem: String) -> PEMReading {
        enum Block { case privateKey, publicKey, certificate }
        let block: Block
        if pem.contains("-----BEGIN PUBLIC KEY-----") {
            block = .publicKey
        } else if pem.contains("-----BEGIN CERTIFICATE-----") {
            block = .certificate
        } else if pem.contains("PRIVATE KEY-----") {
            block = .privateKey
        } else {
            return .notPEM
        }
        let bytes = Array(pem.utf8)
        let bio = BIO_new_mem_buf(bytes, Int32(bytes.count))
        defer { BIO_free(bio) }
        // An encrypted key would make OpenSSL's default callback ask for a passphrase on the
        // terminal; this one answers "none" so that the read fails instead.
        let noPassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = { _, _, _, _ in 0 }
        let read: OpaquePointer?
        switch block {
        case .privateKey: read = PEM_read_bio_PrivateKey(bio, nil, noPassphrase, nil)
        case .publicKey: read = PEM_read_bio_PUBKEY(bio, nil, noPassphrase, nil)
        case .certificate:
            let certificate = PEM_read_bio_X509(bio, nil, noPassphrase, nil)
            defer { X509_free(certificate) }
            read = certificate.flatMap { X509_get_pubkey($0) }
        }
        ERR_clear_error()
        guard let read else { return .unreadable }
        return .key(OwnedKey(taking: read), isPrivate: block == .privateKey)
    }

    /// Whether this is an EC key on the P-256 curve (OpenSSL's name for it is prime256v1).
    var isP256: Bool {
        guard EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return false
        }
        return String(decoding: name[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == SN_X9_62_prime256v1
    }

    /// A key holding only the public half of this one.
    func publicHalf() -> OwnedKey? {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(pointer, &cursor)
        }
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, Int(length))
        }
        return key.map(OwnedKey.init(taking:))
    }

    /// Whether `signature` is this key's signature of `message` with SHA-256, in the form
    /// OpenSSL reads for the key type (DER for ECDSA, PKCS#1 v1.5 for RSA).
    func isValidSHA256Signature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        // A refused signature leaves errors in this thread's OpenSSL queue, where the TLS code
        // reading SSL_get_error on the same thread would find them.
        if !verified { ERR_clear_error() }
        return verified
    }

    /// This (private) key's signature of `message` with SHA-256, in OpenSSL's form for the key
    /// type (DER for ECDSA, PKCS#1 v1.5 for RSA). `algorithm` names it in a failure.
    func sha256Signature(of message: [UInt8], algorithm: String) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { preconditionFailure("OpenSSL could not start an \(algorithm) signature") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            preconditionFailure("OpenSSL could not make an \(algorithm) signature")
        }
        signature.removeSubrange(length...)
        return signature
    }

    /// A new random private key of OpenSSL's `type` (`EVP_PKEY_EC`, `EVP_PKEY_RSA`), its
    /// parameters set by `configure` on the generation context; `name` names it in a failure.
    static func generate(type: Int32, name: String, configure: (OpaquePointer) -> Int32) -> OwnedKey {
        guard let context = EVP_PKEY_CTX_new_id(type, nil) else { preconditionFailure("EVP_PKEY_CTX_new_id failed: out of memory") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key
        else { preconditionFailure("OpenSSL could not generate \(name)") }
        return OwnedKey(taking: key)
    }

    /// The key to verify with: the public half of a private key, a public key as it is.
    static func verifying(_ key: OwnedKey, isPrivate: Bool) -> OwnedKey? {
        isPrivate ? key.publicHalf() : key
    }

    /// The key in PEM, written by `write` (a `PEM_write_bio_*` function).
    func pem(_ write: (OpaquePointer?, OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("BIO_new failed: out of memory") }
        defer { BIO_free(bio) }
        precondition(write(bio, pointer) == 1, "OpenSSL could not write a key it holds as PEM")
        var text = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &text, Int32(text.count))
        return String(decoding: text[0..<Int(max(count, 0))], as: UTF8.self)
    }
}
