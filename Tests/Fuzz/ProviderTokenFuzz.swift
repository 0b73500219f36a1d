// libFuzzer target for the APNs provider-token (JWT) parser, the base64url it reads, and the
// per-connection check over it. An input whose first byte is odd is taken as
// `header JSON \0 claims JSON \0 signature bytes`, which the target encodes into a token itself,
// so that mutations reach the JSON rules under the base64url; otherwise the rest is the token.
// Every token must either be refused with a described error, or parse to non-empty ids, an `iat`
// of digits, signed bytes that are the token up to its last dot, and a signature whose
// base64url is the token's last segment again (one spelling per byte string). `any` mode must
// accept exactly the tokens that parse, and neither mode may trap.
// Built by scripts/fuzz.sh provider-token with swiftc directly, from those sources only.

import ByteCoding

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProviderToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = input.first else { return 0 }
    let rest = input.dropFirst()

    // base64url both ways on the raw bytes.
    precondition(Base64URL.decode(Base64URL.encode(rest)) == Array(rest), "base64url round trip")
    if let decoded = Base64URL.decode(bytes: rest) {
        precondition(Array(Base64URL.encode(decoded).utf8) == Array(rest), "strict base64url has two spellings")
    }

    let token: String
    if mode & 1 == 1 {
        let parts = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return 0 }
        token = Base64URL.encode(parts[0]) + "." + Base64URL.encode(parts[1]) + "." + Base64URL.encode(parts[2])
    } else {
        token = String(decoding: rest, as: UTF8.self)
    }

    let parsed: ProviderToken?
    do {
        parsed = try ProviderToken(parsing: token)
    } catch {
        precondition(!error.description.isEmpty, "an error without a description")
        parsed = nil
    }
    if let parsed {
        precondition(!parsed.keyID.isEmpty && !parsed.teamID.isEmpty, "empty ids")
        precondition(parsed.issuedAt >= 0, "negative iat")
        let bytes = Array(token.utf8)
        precondition(parsed.signedBytes + [UInt8(ascii: ".")] + Array(Base64URL.encode(parsed.signature).utf8) == bytes,
            "signed bytes and signature do not make the token again")
    }

    let now = Timestamp(secondsSinceEpoch: 1_795_341_600)
    let key = ProviderKey(keyID: parsed?.keyID ?? "K", teamID: parsed?.teamID ?? "T") { _, signature in signature.count == 64 }
    let isBlank = token.utf8.isEmpty || token.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
    var anySession = ProviderTokenSession()
    let anyReason = anySession.check(authorization: "bearer " + token, mode: .any, keys: [:], now: now)
    if !isBlank {
        precondition((anyReason == nil) == (parsed != nil), "any mode disagrees with the parser: \(String(describing: anyReason))")
        // The cached answer is the same.
        precondition(anySession.check(authorization: "Bearer " + token, mode: .any, keys: [:], now: now) == anyReason)
    }
    var strictSession = ProviderTokenSession()
    for seconds: Int64 in [0, 1200, 3601] {
        _ = strictSession.check(authorization: "bearer " + token, mode: .strict, keys: [key.keyID: key], now: now.adding(seconds: seconds))
    }
    return 0
}
