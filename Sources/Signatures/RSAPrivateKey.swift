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
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else { preconditionFailure("EVP_PKEY_CTX_new_id failed: out of memory") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key
        else { preconditionFailure("OpenSSL could not generate an RSA key of \(bits) bits") }
        return RSAPrivateKey(key: OwnedKey(taking: key))
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
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { preconditionFailure("OpenSSL could not start an RS256 signature") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            preconditionFailure("OpenSSL could not make an RS256 signature")
        }
        signature.removeSubrange(length...)
        return signature
    }
}
