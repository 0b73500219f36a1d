import COpenSSL
import CShims

/// The server's TLS configuration: TLS 1.2 and 1.3 only, ALPN `h2` then `http/1.1`.
///
/// `@unchecked Sendable`: the `SSL_CTX` is configured in init and only read afterwards
/// (`SSL_new` on any loop), which OpenSSL allows from several threads.
public final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer

    /// Uses a certificate chain and key from PEM files.
    public convenience init(certificatePath: String, keyPath: String) throws {
        try self.init { context in
            guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
                throw TLSError("loading the certificate chain \(certificatePath)")
            }
            guard SSL_CTX_use_PrivateKey_file(context, keyPath, SSL_FILETYPE_PEM) == 1 else {
                throw TLSError("loading the private key \(keyPath)")
            }
        }
    }

    /// Uses the server certificate a local CA signed, sending the CA along in the chain.
    public convenience init(authority: CertificateAuthority) throws {
        try self.init { context in
            guard SSL_CTX_use_certificate(context, authority.leafCertificate) == 1,
                  SSL_CTX_use_PrivateKey(context, authority.leafKey) == 1,
                  CShims_SSL_CTX_add1_chain_cert(context, authority.caCertificate) == 1
            else { throw TLSError("installing the generated certificate") }
        }
    }

    private init(identity: (OpaquePointer) throws -> Void) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError("SSL_CTX_new") }
        self.context = context
        _ = CShims_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        _ = CShims_SSL_CTX_set_max_proto_version(context, TLS1_3_VERSION)
        SSL_CTX_set_options(context, CShims_SSL_OP_NO_RENEGOTIATION() | CShims_SSL_OP_NO_COMPRESSION() | CShims_SSL_OP_CIPHER_SERVER_PREFERENCE())
        _ = CShims_SSL_CTX_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS))
        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, offered, offeredLength, _ in
            guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_NOACK }
            return TLSContext.selectALPN(out, outLength, offered, Int(offeredLength))
        }, nil)
        try identity(context)
        guard SSL_CTX_check_private_key(context) == 1 else { throw TLSError("the private key does not match the certificate") }
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// Picks `h2` when offered, else `http/1.1`; with neither, no ALPN (the connection is sniffed).
    private static func selectALPN(
        _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ outLength: UnsafeMutablePointer<UInt8>,
        _ offered: UnsafePointer<UInt8>, _ length: Int
    ) -> Int32 {
        for wanted in [Array("h2".utf8), Array("http/1.1".utf8)] {
            var index = 0
            while index < length {
                let size = Int(offered[index])
                let start = index + 1
                guard start + size <= length else { break }
                if size == wanted.count && (0..<size).allSatisfy({ offered[start + $0] == wanted[$0] }) {
                    out.pointee = offered + start
                    outLength.pointee = UInt8(size)
                    return SSL_TLSEXT_ERR_OK
                }
                index = start + size
            }
        }
        return SSL_TLSEXT_ERR_NOACK
    }
}
