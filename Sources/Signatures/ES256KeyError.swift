/// Why a PEM text could not be loaded as an ES256 key.
public enum ES256KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text holds no `-----BEGIN PRIVATE KEY-----` or `-----BEGIN PUBLIC KEY-----` block.
    case notPEM
    /// The PEM block is there but OpenSSL cannot read a key from it (damaged, or encrypted).
    case unreadable
    /// The key is not an elliptic-curve key on P-256 (an RSA or P-384 key, for example).
    case notP256
    /// A public key was given where the private key is needed.
    case notPrivate

    /// What went wrong, for the command line.
    public var description: String {
        switch self {
        case .notPEM: "not PEM: expected -----BEGIN PRIVATE KEY----- (an AuthKey_*.p8 file) or -----BEGIN PUBLIC KEY-----"
        case .unreadable: "unreadable PEM key (damaged, or encrypted with a passphrase)"
        case .notP256: "not a P-256 EC key (ES256 needs the prime256v1 curve)"
        case .notPrivate: "not a private key: expected -----BEGIN PRIVATE KEY-----"
        }
    }
}
