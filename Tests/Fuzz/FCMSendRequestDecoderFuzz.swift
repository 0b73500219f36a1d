// libFuzzer target for FCMSendRequestFastDecoder: built with the PushCore sources by
// scripts/fuzz.sh fcm-decode. The general path (JSONParser, then FCMSendRequest(json:)) is the
// reference: whenever the fast decoder answers, the reference must accept the same bytes and
// give the same request. Neither may trap on any input.

import ByteCoding

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFCMSendRequestDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let fast = FCMSendRequest.decodeWellFormed(body)
    var reference: FCMSendRequest?
    do throws(JSONParseError) {
        let json = try JSONParser.parse(body)
        do throws(GoogleError) {
            reference = try FCMSendRequest(json: json)
        } catch {
            // Errors must describe themselves without trapping.
            _ = error.jsonBytes
        }
    } catch {
        _ = error.googleDescription
    }
    guard let fast else { return 0 }
    guard let reference else {
        fatalError("fast path accepted what the reference rejects: \(String(decoding: body, as: UTF8.self))")
    }
    if fast != reference {
        fatalError("fast path differs: \(fast) vs \(reference) for \(String(decoding: body, as: UTF8.self))")
    }
    return 0
}
