import COpenSSL

/// A P-256 public key that checks ES256 signatures (ECDSA on P-256 with SHA-256), as APNs checks
/// provider tokens. Safe to share between threads.
public struct ES256PublicKey: Sendable {
    let key: OwnedKey

    /// Loads the key from PEM: either a private key (`-----BEGIN PRIVATE KEY-----`, the PKCS#8 of
    /// Apple's `AuthKey_XXXXXXXXXX.p8` files; the older `-----BEGIN EC PRIVATE KEY-----` is read
    /// too), whose public half is kept, or a public key (`-----BEGIN PUBLIC KEY-----`). Refuses any
    /// key that is not on P-256.
    public init(pem: String) throws(ES256KeyError) {
        let (key, isPrivate) = try OwnedKey.read(pem: pem)
        guard let verifying = OwnedKey.verifying(key, isPrivate: isPrivate) else { throw .unreadable }
        self.key = verifying
    }

    init(key: OwnedKey) {
        self.key = key
    }

    /// The key as `-----BEGIN PUBLIC KEY-----` PEM.
    public var pem: String {
        key.pem { bio, key in PEM_write_bio_PUBKEY(bio, key) }
    }

    /// Whether `signature` is this key's ES256 signature of `message`. The signature may be
    /// written either way clients write it: raw R‖S (64 bytes, JOSE) or DER.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        if signature.count == ECDSASignatureEncoding.rawLength, let der = ECDSASignatureEncoding.der(fromRaw: signature),
           verify(der: der, of: message) {
            return true
        }
        return verify(der: signature, of: message)
    }

    private func verify(der signature: [UInt8], of message: [UInt8]) -> Bool {
        key.isValidSHA256Signature(signature, of: message)
    }
}
