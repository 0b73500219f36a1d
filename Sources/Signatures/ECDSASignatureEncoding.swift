import COpenSSL

/// Conversions between the two ways an ECDSA P-256 signature is written: raw R‖S and DER.
enum ECDSASignatureEncoding {
    /// The length of one of R and S on P-256.
    static let scalarLength = 32
    /// The length of a raw R‖S signature.
    static let rawLength = 2 * scalarLength

    /// The DER form of a raw R‖S signature, or nil when it is not 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawLength, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (BN_bin2bn(buffer.baseAddress, Int32(scalarLength), nil),
             BN_bin2bn(buffer.baseAddress! + scalarLength, Int32(scalarLength), nil))
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &cursor)
        }
        return der
    }

    /// The raw R‖S form of a DER signature, or nil when it is not one with R and S of at most 32 bytes.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, der.count)
        }
        guard let signature = parsed else {
            ERR_clear_error()
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: rawLength)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            (BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, Int32(scalarLength)),
             BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + scalarLength, Int32(scalarLength)))
        }
        guard written.0 == scalarLength, written.1 == scalarLength else { return nil }
        return raw
    }
}
