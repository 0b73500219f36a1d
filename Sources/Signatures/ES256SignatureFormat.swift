/// How an ECDSA P-256 signature is written.
public enum ES256SignatureFormat: Sendable, CaseIterable {
    /// R‖S, 32 bytes each (JOSE, as Go and Python clients sign JWTs).
    case raw
    /// An ASN.1 DER `ECDSA-Sig-Value` sequence (as Java's Signature and Pushy produce).
    case der
}
