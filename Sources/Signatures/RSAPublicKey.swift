import COpenSSL

/// An RSA public key that checks RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256), as Google's
/// token endpoint checks a service account's JWT assertion. Safe to share between threads.
public struct RSAPublicKey: Sendable {
    let key: OwnedKey

    /// Loads the key from PEM: a private key (`-----BEGIN PRIVATE KEY-----`, the PKCS#8 a
    /// service-account JSON holds in `private_key`; the older `-----BEGIN RSA PRIVATE KEY-----` is
    /// read too), whose public half is kept; a public key (`-----BEGIN PUBLIC KEY-----`); or a
    /// certificate (`-----BEGIN CERTIFICATE-----`, as Google publishes service-account keys).
    /// Refuses any key that is not RSA.
    public init(pem: String) throws(RSAKeyError) {
        let (key, isPrivate) = try Self.read(pem: pem)
        guard let verifying = OwnedKey.verifying(key, isPrivate: isPrivate) else { throw .unreadable }
        self.key = verifying
    }

    init(key: OwnedKey) {
        self.key = key
    }

    /// Reads an RSA key of any kind from PEM.
    static func read(pem: String) throws(RSAKeyError) -> (key: OwnedKey, isPrivate: Bool) {
        switch OwnedKey.readAnyType(pem: pem) {
        case .notPEM: throw .notPEM
        case .unreadable: throw .unreadable
        case .key(let key, let isPrivate):
            guard EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_RSA else { throw .notRSA }
            return (key, isPrivate)
        }
    }

    /// The key as `-----BEGIN PUBLIC KEY-----` PEM.
    public var pem: String {
        key.pem { bio, key in PEM_write_bio_PUBKEY(bio, key) }
    }

    /// Whether `signature` is this key's RS256 signature of `message`.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        // PKCS#1 v1.5 is OpenSSL's default RSA padding, the one RS256 names.
        key.isValidSHA256Signature(signature, of: message)
    }
}
