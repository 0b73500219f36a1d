/// Why a PEM text could not be loaded as an RSA key.
public enum RSAKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text holds no private key, public key or certificate block.
    case notPEM
    /// The PEM block is there but OpenSSL cannot read a key from it (damaged, or encrypted).
    case unreadable
    /// The key is not an RSA key (an EC key, for example).
    case notRSA
    /// A public key or certificate was given where the private key is needed.
    case notPrivate

    /// What went wrong, for the command line.
    public var description: String {
        switch self {
        case .notPEM: "not PEM: expected -----BEGIN PRIVATE KEY----- (a service account's private_key), -----BEGIN PUBLIC KEY----- or -----BEGIN CERTIFICATE-----"
        case .unreadable: "unreadable PEM key (damaged, or encrypted with a passphrase)"
        case .notRSA: "not an RSA key (RS256 needs one)"
        case .notPrivate: "not a private key: expected -----BEGIN PRIVATE KEY-----"
        }
    }
}
