import COpenSSL
import CShims

#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTP/1.1 client, over TCP or TLS (OpenSSL): one request per connection
/// (`Connection: close`), the whole answer read before it returns. The emulator's own client, for
/// webhooks, the health probe and the Swift test library; not for a request's path (it blocks its
/// thread until the answer or the timeout).
///
/// `@unchecked Sendable`: the `SSL_CTX` is configured in init and only read afterwards (`SSL_new`
/// from any thread), which OpenSSL allows.
public final class HTTPClient: @unchecked Sendable {
    /// Which certificates an `https://` server may present.
    public enum Trust: Sendable {
        /// The system's trust store (`/etc/ssl/certs`, as OpenSSL finds it).
        case system
        /// Only certificates signed by this CA (PEM): the emulator's own, or a test's.
        case certificate(pem: String)
    }

    private let context: OpaquePointer

    /// A client that trusts the system's store for `https://` URLs.
    public convenience init() {
        // Fails only when OpenSSL cannot allocate: nothing to go on with.
        try! self.init(trust: .system)
    }

    /// A client that trusts `trust`'s certificates for `https://` URLs; throws when the CA is not a
    /// PEM certificate.
    public init(trust: Trust) throws(HTTPClientError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw HTTPClientError(TLSError("SSL_CTX_new").description) }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = CShims_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        // A server that closes without close_notify ends the answer (read to the end), as most do.
        SSL_CTX_set_options(context, CShims_SSL_OP_IGNORE_UNEXPECTED_EOF())
        switch trust {
        case .system:
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw HTTPClientError(TLSError("loading the system's trust store").description)
            }
        case .certificate(let pem):
            do {
                let certificate = try CertificateAuthority.readCertificate(Array(pem.utf8))
                defer { X509_free(certificate) }
                guard X509_STORE_add_cert(SSL_CTX_get_cert_store(context), certificate) == 1 else {
                    throw TLSError("adding the CA certificate")
                }
            } catch {
                throw HTTPClientError("the CA certificate: \(error)")
            }
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// Sends `method` to `url` with `headers` and `body` (a `Content-Length` is added), and reads
    /// the whole answer; throws when none came within `timeoutSeconds` for the connection and for
    /// each read and write.
    public func send(
        _ method: String, _ url: HTTPClientURL, headers: [(String, String)] = [], body: [UInt8] = [], timeoutSeconds: Int = 10
    ) throws(HTTPClientError) -> HTTPClientResponse {
        var head = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nConnection: close\r\n"
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" { head += "Content-Length: \(body.count)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = Array((head + "\r\n").utf8) + body
        let fd: Int32
        do {
            fd = try Socket.connect(host: url.host, port: url.port, timeoutSeconds: timeoutSeconds)
        } catch {
            throw HTTPClientError("cannot connect to \(url.hostHeader): \(error)")
        }
        defer { Socket.close(fd) }
        let channel: any ClientChannel = url.usesTLS ? try TLSChannel(context: context, fd: fd, host: url.host) : PlainChannel(fd: fd)
        try channel.write(request)
        var received: [UInt8] = []
        while true {
            let chunk = try channel.read()
            received += chunk
            if let response = try HTTPResponseParser.response(in: received, ended: chunk.isEmpty) { return response }
        }
    }
}

/// Where the client's bytes go: the socket itself or a TLS session over it.
private protocol ClientChannel {
    func write(_ bytes: [UInt8]) throws(HTTPClientError)
    /// The next bytes; empty at the end of the stream.
    func read() throws(HTTPClientError) -> [UInt8]
}

private struct PlainChannel: ClientChannel {
    let fd: Int32

    func write(_ bytes: [UInt8]) throws(HTTPClientError) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { all in
                Result { () throws(SystemError) in try Socket.write(fd, from: UnsafeRawBufferPointer(rebasing: all[sent...])) }
            }
            switch result {
            case .success(.done(let count)): sent += count
            case .success(.wouldBlock): throw HTTPClientError("timed out sending the request")
            case .failure(let error): throw HTTPClientError("sending the request: \(error)")
            }
        }
    }

    func read() throws(HTTPClientError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let result = buffer.withUnsafeMutableBytes { bytes in Result { () throws(SystemError) in try Socket.read(fd, into: bytes) } }
        switch result {
        case .success(.done(let count)): return Array(buffer[..<count])
        case .success(.wouldBlock): throw HTTPClientError("timed out waiting for the answer")
        case .failure(let error): throw HTTPClientError("reading the answer: \(error)")
        }
    }
}

/// A TLS session over a blocking socket whose reads and writes time out (`SO_RCVTIMEO`,
/// `SO_SNDTIMEO`): OpenSSL sees a timeout as a read or write that would block.
private final class TLSChannel: ClientChannel {
    private let ssl: OpaquePointer

    init(context: OpaquePointer, fd: Int32, host: String) throws(HTTPClientError) {
        guard let ssl = SSL_new(context) else { throw HTTPClientError(TLSError("SSL_new").description) }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        // SNI for names only (RFC 6066 forbids addresses); the name or address is checked against
        // the certificate either way.
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v6) != 1, inet_pton(AF_INET6, host, &v6) != 1 {
            _ = host.withCString { SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: $0)) }
        }
        SSL_set1_host(ssl, host)
        let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
        SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count))
        // OpenSSL's error queue is the thread's: what an earlier request left would make this
        // one's errors (and its clean end of stream) read as failures.
        ERR_clear_error()
        let result = SSL_connect(ssl)
        guard result == 1 else {
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                ERR_clear_error()
                throw HTTPClientError("the TLS certificate of \(host) is not trusted: \(String(cString: X509_verify_cert_error_string(Int(verify))))")
            }
            throw failure("the TLS handshake with \(host)", result)
        }
    }

    deinit {
        if SSL_is_init_finished(ssl) == 1 { SSL_shutdown(ssl) }
        ERR_clear_error()
        SSL_free(ssl)
    }

    func write(_ bytes: [UInt8]) throws(HTTPClientError) {
        var sent = 0
        while sent < bytes.count {
            ERR_clear_error()
            let result = bytes[sent...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard result > 0 else { throw failure("sending the request", result) }
            sent += Int(result)
        }
    }

    func read() throws(HTTPClientError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        ERR_clear_error()
        let result = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        if result > 0 { return Array(buffer[..<Int(result)]) }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_ZERO_RETURN { return [] }
        throw failure("reading the answer", result)
    }

    private func failure(_ what: String, _ result: Int32) -> HTTPClientError {
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return HTTPClientError("\(what): timed out") }
        return HTTPClientError(TLSError(what).description)
    }
}
