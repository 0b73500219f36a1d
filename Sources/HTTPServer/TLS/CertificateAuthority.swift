import COpenSSL
import CShims

/// A local certificate authority and the server certificate it signs, generated with OpenSSL so that
/// clients can trust the emulator (and, in interception mode, the real services' names it answers for).
///
/// `@unchecked Sendable`: the OpenSSL objects are never mutated after init; OpenSSL's reference
/// counting on them is thread-safe.
public final class CertificateAuthority: @unchecked Sendable {
    let caKey: OpaquePointer
    let caCertificate: OpaquePointer
    let leafKey: OpaquePointer
    let leafCertificate: OpaquePointer

    /// The CA certificate, PEM.
    public let caPEM: String
    /// The server certificate, PEM.
    public let leafPEM: String

    /// Loads the CA from `directory/ca.pem` and `ca-key.pem` when both exist, else generates one and
    /// saves it there (when a directory is given); then signs a fresh server certificate for `names`
    /// (DNS names and IP addresses).
    public init(directory: String?, names: [String]) throws {
        var loaded: (OpaquePointer, OpaquePointer)?
        if let directory, FileIO.exists(directory + "/ca.pem"), FileIO.exists(directory + "/ca-key.pem") {
            let certificate = try Self.readCertificate(try FileIO.read(directory + "/ca.pem"))
            let key = try Self.readKey(try FileIO.read(directory + "/ca-key.pem"))
            loaded = (key, certificate)
        }
        if let (key, certificate) = loaded {
            caKey = key
            caCertificate = certificate
        } else {
            caKey = try Self.generateKey()
            caCertificate = try Self.makeCertificate(
                key: caKey, commonName: "push-emulator local CA", issuer: nil, issuerKey: caKey, days: 3650,
                extensions: [
                    (NID_basic_constraints, "critical,CA:TRUE"),
                    (NID_key_usage, "critical,keyCertSign,cRLSign"),
                    (NID_subject_key_identifier, "hash"),
                ]
            )
            if let directory {
                try FileIO.makeDirectories(directory)
                try FileIO.write(directory + "/ca.pem", Array(try Self.pem(certificate: caCertificate).utf8))
                try FileIO.write(directory + "/ca-key.pem", Array(try Self.pem(key: caKey).utf8), mode: 0o600)
            }
        }
        leafKey = try Self.generateKey()
        let alternativeNames = names.map { name in
            name.contains(where: { $0 == ":" }) || name.allSatisfy({ $0.isNumber || $0 == "." }) ? "IP:\(name)" : "DNS:\(name)"
        }.joined(separator: ",")
        leafCertificate = try Self.makeCertificate(
            key: leafKey, commonName: names.first ?? "localhost", issuer: caCertificate, issuerKey: caKey, days: 397,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_alt_name, alternativeNames),
                (NID_authority_key_identifier, "keyid"),
            ]
        )
        caPEM = try Self.pem(certificate: caCertificate)
        leafPEM = try Self.pem(certificate: leafCertificate)
    }

    deinit {
        X509_free(leafCertificate)
        EVP_PKEY_free(leafKey)
        X509_free(caCertificate)
        EVP_PKEY_free(caKey)
    }

    private static func generateKey() throws -> OpaquePointer {
        guard let key = CShims_EVP_EC_gen_P256() else { throw TLSError("generating a P-256 key") }
        return key
    }

    private static func makeCertificate(
        key: OpaquePointer, commonName: String, issuer: OpaquePointer?, issuerKey: OpaquePointer, days: Int,
        extensions: [(Int32, String)]
    ) throws -> OpaquePointer {
        guard let certificate = X509_new() else { throw TLSError("X509_new") }
        X509_set_version(certificate, 2)
        var serial = [UInt8](repeating: 0, count: 16)
        RAND_bytes(&serial, Int32(serial.count))
        serial[0] &= 0x7f
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate))
        BN_free(number)
        X509_gmtime_adj(X509_getm_notBefore(certificate), -86_400)
        X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400)
        X509_set_pubkey(certificate, key)
        let name = X509_get_subject_name(certificate)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, "push-emulator", -1, -1, 0)
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0) } ?? name)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer ?? certificate, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                X509_free(certificate)
                throw TLSError("certificate extension \(value)")
            }
            X509_add_ext(certificate, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(certificate, issuerKey, EVP_sha256()) > 0 else {
            X509_free(certificate)
            throw TLSError("signing the certificate")
        }
        return certificate
    }

    static func pem(certificate: OpaquePointer) throws -> String {
        try withMemoryBIO { bio in PEM_write_bio_X509(bio, certificate) }
    }

    static func pem(key: OpaquePointer) throws -> String {
        try withMemoryBIO { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
    }

    private static func withMemoryBIO(_ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw TLSError("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw TLSError("writing PEM") }
        var data: UnsafeMutablePointer<CChar>?
        let length = CShims_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { throw TLSError("reading PEM") }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    static func readCertificate(_ pem: [UInt8]) throws -> OpaquePointer {
        let bio = BIO_new_mem_buf(pem, Int32(pem.count))
        defer { BIO_free(bio) }
        guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else { throw TLSError("reading a PEM certificate") }
        return certificate
    }

    static func readKey(_ pem: [UInt8]) throws -> OpaquePointer {
        let bio = BIO_new_mem_buf(pem, Int32(pem.count))
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { throw TLSError("reading a PEM private key") }
        return key
    }
}
