// libFuzzer target for HTTPResponseParser (the client's reader of what a webhook's server
// answers): built with the parser's files alone by scripts/fuzz.sh http-response. The parser must
// never trap, and it must not depend on how the bytes arrived: a response complete in a prefix is
// the same response in the whole stream, and a prefix it refuses is refused in the whole too.

/// Like precondition, but prints its message in -O builds too, so a crash says which invariant broke.
private func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

private enum Outcome: Equatable {
    case needsMore
    case response(HTTPClientResponse)
    case refused(String)
}

private func outcome(_ bytes: [UInt8], ended: Bool) -> Outcome {
    do throws(HTTPClientError) {
        return try HTTPResponseParser.response(in: bytes, ended: ended).map(Outcome.response) ?? .needsMore
    } catch {
        return .refused(error.description)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponseParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let split = Int(data[0]) * stream.count / 255
    let prefix = Array(stream[..<split])
    let early = outcome(prefix, ended: false)
    let whole = outcome(stream, ended: false)
    let closed = outcome(stream, ended: true)
    expect(closed != .needsMore, "a closed stream must give a response or a refusal: \(stream)")
    switch early {
    case .response(let response):
        // Read-to-close bodies grow; any other framing ends where it ended.
        if case .response(let later) = whole { expect(later == response, "prefix \(response) became \(later)") }
        else { expect(false, "prefix gave \(response), the whole \(whole)") }
    case .refused:
        if case .response(let later) = whole { expect(false, "prefix refused, the whole gave \(later)") }
    case .needsMore:
        break
    }
    return 0
}
