import COpenSSL

/// One TLS connection over a non-blocking socket (OpenSSL reads and writes the descriptor itself).
final class TLSSession {
    /// What an OpenSSL call did.
    enum Outcome {
        case done(Int)
        case wantRead
        case wantWrite
        case closed
        case failed(String)
    }

    private let ssl: OpaquePointer
    /// Set once OpenSSL reported a fatal error, after which it must not be asked to shut down.
    private var broken = false

    init(context: TLSContext, fd: Int32) throws {
        guard let ssl = SSL_new(context.context) else { throw TLSError("SSL_new") }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        SSL_set_accept_state(ssl)
    }

    deinit {
        SSL_free(ssl)
    }

    /// Advances the handshake.
    func handshake() -> Outcome {
        outcome(SSL_do_handshake(ssl))
    }

    /// The protocol ALPN chose (`h2`, `http/1.1`), or nil when the client offered none.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The host name the client asked for (SNI), or nil.
    var serverName: String? {
        guard let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else { return nil }
        return String(cString: name)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Outcome {
        outcome(SSL_read(ssl, buffer.baseAddress, Int32(buffer.count)))
    }

    func write(from buffer: UnsafeRawBufferPointer) -> Outcome {
        guard buffer.count > 0 else { return .done(0) }
        return outcome(SSL_write(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max)))))
    }

    /// Sends close_notify, once, without waiting for the peer's (RFC 8446 §6.1: a client can then
    /// tell the end of a close-delimited answer from a cut). Skipped before the handshake has
    /// finished and after a fatal error. False when the socket had no room for it: call again
    /// once it is writable.
    @discardableResult
    func shutdown() -> Bool {
        guard !broken, SSL_is_init_finished(ssl) == 1 else { return true }
        let result = SSL_shutdown(ssl)
        let wantsWrite = result < 0 && SSL_get_error(ssl, result) == SSL_ERROR_WANT_WRITE
        ERR_clear_error()
        return !wantsWrite
    }

    private func outcome(_ result: Int32) -> Outcome {
        if result > 0 { return .done(Int(result)) }
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            let error = TLSError("TLS error \(code)")
            ERR_clear_error()
            broken = true
            return code == SSL_ERROR_SYSCALL && result == 0 ? .closed : .failed(error.description)
        }
    }
}
