import COpenSSL

/// A P-256 private key that makes ES256 signatures (ECDSA on P-256 with SHA-256): what a provider
/// signs its APNs tokens with. Safe to share between threads.
public struct ES256PrivateKey: Sendable {
    let key: OwnedKey

    /// Loads the key from `-----BEGIN PRIVATE KEY-----` PEM (PKCS#8, as Apple's `.p8` files; the
    /// older `-----BEGIN EC PRIVATE KEY-----` is read too). Refuses public keys and keys not on P-256.
    public init(pem: String) throws(ES256KeyError) {
        let (key, isPrivate) = try OwnedKey.read(pem: pem)
        guard isPrivate else { throw .notPrivate }
        self.key = key
    }

    private init(key: OwnedKey) {
        self.key = key
    }

    /// A new random key.
    public static func generate() -> ES256PrivateKey {
        ES256PrivateKey(key: OwnedKey.generate(type: EVP_PKEY_EC, name: "a P-256 key") { context in
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1)
        })
    }

    /// The key as `-----BEGIN PRIVATE KEY-----` PEM (PKCS#8, the `.p8` format).
    public var pem: String {
        key.pem { bio, key in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
    }

    /// The public half, which verifies this key's signatures.
    public var publicKey: ES256PublicKey {
        guard let publicHalf = key.publicHalf() else { preconditionFailure("OpenSSL could not export a public key it holds") }
        return ES256PublicKey(key: publicHalf)
    }

    /// This key's ES256 signature of `message`, written in `format`.
    public func signature(of message: [UInt8], format: ES256SignatureFormat) -> [UInt8] {
        let der = key.sha256Signature(of: message, algorithm: "ES256")
        switch format {
        case .der:
            return der
        case .raw:
            guard let raw = ECDSASignatureEncoding.raw(fromDER: der) else { preconditionFailure("OpenSSL made a signature it cannot read") }
            return raw
        }
    }
}
