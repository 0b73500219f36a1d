import COpenSSL

/// An RSA private key that makes RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256): what a
/// service account signs its token requests with. Tests use it to play the client. Safe to
/// share between threads.
public struct RSAPrivateKey: Sendable {
    let key: OwnedKey

    /// Loads the key from `-----BEGIN PRIVATE KEY-----` PEM (PKCS#8, as a service-account JSON's
    /// `private_key`). Refuses public keys, certificates and keys that are not RSA.
    public init(pem: String) throws(RSAKeyError) {
        let (key, isPrivate) = try RSAPublicKey.read(pem: pem)
        guard isPrivate else { throw .notPrivate }
        self.key = key
    }

    private init(key: OwnedKey) {
        self.key = key
    }

    /// A new random key of `bits` bits (2048 unless told: what Google's service-account keys have).
    public static func generate(bits: Int = 2048) -> RSAPrivateKey {
        RSAPrivateKey(key: OwnedKey.generate(type: EVP_PKEY_RSA, name: "an RSA key of \(bits) bits") { context in
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits))
        })
    }

    /// The key as `-----BEGIN PRIVATE KEY-----` PEM (PKCS#8).
    public var pem: String {
        key.pem { bio, key in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
    }

    /// The public half, which verifies this key's signatures.
    public var publicKey: RSAPublicKey {
        guard let publicHalf = key.publicHalf() else { preconditionFailure("OpenSSL could not export a public key it holds") }
        return RSAPublicKey(key: publicHalf)
    }

    /// This key's RS256 signature of `message`.
    public func signature(of message: [UInt8]) -> [UInt8] {
        key.sha256Signature(of: message, algorithm: "RS256")
    }
}
