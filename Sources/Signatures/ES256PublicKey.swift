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
        if isPrivate {
            guard let publicHalf = key.publicHalf() else { throw .unreadable }
            self.key = publicHalf
        } else {
            self.key = key
        }
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
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        // A refused signature leaves errors in this thread's OpenSSL queue, where the TLS code
        // reading SSL_get_error on the same thread would find them.
        if !verified { ERR_clear_error() }
        return verified
    }
}
