// libFuzzer target for HTTP1Parser: built with the parser files alone by scripts/fuzz.sh http1.
// The first input byte picks a split position; the rest is the byte stream. Feeding it whole and
// split in two must give the same requests and the same error, and the parser must never trap.

/// Like precondition, but prints its message in -O builds too, so a crash says which invariant broke.
private func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// Small limits, so that the fuzzer reaches every limit path with short inputs.
private let fuzzLimits = HTTP1Parser.Limits(maxHeaderBytes: 512, maxBodyBytes: 256, maxRequestLineBytes: 128, maxHeaderCount: 8)

/// One request as seen by a connection, flattened for comparison; body pieces joined.
private struct FuzzRequest: Equatable {
    var head: [String]
    var body: [UInt8] = []
    /// Stream offset right after the request's last byte, once it ended.
    var endOffset: Int?
}

private struct FuzzOutcome: Equatable {
    var requests: [FuzzRequest] = []
    var error: HTTP1ParseError?

    /// A throwing call returns no events, so after an error only the requests that ended are comparable.
    var independentOfSplitting: FuzzOutcome {
        error == nil ? self : FuzzOutcome(requests: requests.filter { $0.endOffset != nil }, error: error)
    }
}

private func describe(_ head: HTTP1RequestHead) -> [String] {
    [head.method, head.target, "\(head.version)", "keepAlive=\(head.keepAlive)", "continue=\(head.expectsContinue)",
     "h2c=\(head.upgradeToH2C)", "settings=\(head.http2Settings ?? "-")"] + head.headers.map { "\($0.name): \($0.value)" }
}

/// Feeds `stream` in the given pieces the way a connection does: unconsumed bytes are fed again.
private func run(_ stream: [UInt8], splitAt split: Int) -> FuzzOutcome {
    var parser = HTTP1Parser(limits: fuzzLimits)
    var outcome = FuzzOutcome()
    var offset = 0
    for piece in [stream[..<split], stream[split...]] {
        var pending = piece
        while !pending.isEmpty {
            let result = pending.withUnsafeBytes { bytes in
                Result { () throws(HTTP1ParseError) in try parser.parse(bytes) }
            }
            switch result {
            case .failure(let error):
                outcome.error = error
                return outcome
            case .success(let (consumed, events)):
                expect(consumed > 0 && consumed <= pending.count, "consumed \(consumed) of \(pending.count)")
                offset += consumed
                pending = pending.dropFirst(consumed)
                for (index, event) in events.enumerated() {
                    switch event {
                    case .head(let head):
                        expect(outcome.requests.last.map { $0.endOffset != nil } ?? true, "head inside a request")
                        outcome.requests.append(FuzzRequest(head: describe(head)))
                    case .body(let bytes):
                        expect(!bytes.isEmpty, "empty body event")
                        expect(outcome.requests.last?.endOffset == nil, "body outside a request")
                        outcome.requests[outcome.requests.count - 1].body += bytes
                    case .end:
                        expect(index == events.count - 1, "events after end")
                        expect(outcome.requests.last?.endOffset == nil, "end outside a request")
                        expect(!parser.isMidRequest, "mid-request after end")
                        outcome.requests[outcome.requests.count - 1].endOffset = offset
                    }
                }
                if case .end = events.last {} else {
                    expect(pending.isEmpty, "stopped early without an end")
                    if outcome.requests.last.map({ $0.endOffset == nil }) ?? false {
                        expect(parser.isMidRequest, "request in progress but not mid-request")
                    }
                }
            }
        }
    }
    if let body = outcome.requests.last?.body { expect(body.count <= fuzzLimits.maxBodyBytes, "body over the limit") }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1Parser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let split = Int(data[0]) * stream.count / 255
    let whole = run(stream, splitAt: stream.count)
    let pieces = run(stream, splitAt: split)
    expect(whole.independentOfSplitting == pieces.independentOfSplitting,
                 "whole \(whole) differs from split at \(split): \(pieces)")
    return 0
}
