// libFuzzer target for the request headers the emulator's own API reads besides the parsers of
// HTTP itself: `Authorization: Basic` (`BasicCredential`, --ui-auth-file) and the host names of
// `Host` and `Origin` (`RequestHostNames`, the browser guard). The input's first byte picks the
// header (or app id), the rest is its value. None may trap; a Basic credential read must read the same when
// written again; a host taken from an authority is part of it; an origin's authority is what
// follows its `://`; an IPv4 address has four numbers up to 255; an app id accepted as a web
// origin or a package name is ASCII of the characters its form allows.
// Built by scripts/fuzz.sh request-headers with swiftc directly, from those sources only.

import ByteCoding

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHeaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let value = String(decoding: input.dropFirst(), as: UTF8.self)
    switch selector % 5 {
    case 0:
        if let (user, password) = BasicCredential.userAndPassword(in: value) {
            precondition(!user.utf8.contains(UInt8(ascii: ":")), "a user name with a colon")
            let again = BasicCredential.userAndPassword(in: "Basic " + Base64URL.encode(Array(user.utf8) + [UInt8(ascii: ":")] + password))
            precondition(again?.user == user && again?.password == password, "a credential that reads otherwise written again")
        }
    case 1:
        let host = RequestHostNames.host(ofAuthority: value)
        precondition(host.isEmpty || value.contains(host), "a host that is not part of its authority")
        if RequestHostNames.isIPAddress(host), !host.contains(":") {
            let parts = host.split(separator: ".")
            precondition(parts.count == 4 && parts.allSatisfy { Int($0).map { $0 <= 255 } ?? false }, "not an IPv4 address")
        }
        _ = RequestHostNames.withoutDefaultPort(value)
    case 3:
        if AppIdentifiers.isWebOrigin(value) {
            precondition(value.hasPrefix("http://") || value.hasPrefix("https://"), "an origin of another scheme")
            let rest = value.utf8.drop { $0 != UInt8(ascii: "/") }.dropFirst(2)
            precondition(!rest.isEmpty && rest.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "/") }, "an origin with a path or not ASCII")
        }
    case 4:
        if AppIdentifiers.isPackageName(value) {
            precondition(value.contains(".") && !value.hasPrefix(".") && !value.hasSuffix("."), "a package of one part")
            precondition(value.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "-") }, "a package that is not ASCII letters, digits, _ and dots")
        }
    default:
        if let authority = RequestHostNames.authority(ofOrigin: value) {
            precondition(!authority.isEmpty && !authority.contains("/") && value.hasSuffix(authority), "an origin's authority")
        }
    }
    return 0
}
