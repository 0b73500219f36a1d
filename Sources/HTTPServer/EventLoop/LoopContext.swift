/// What every connection on one loop shares: the configuration, the handler, a scratch read buffer
/// and the access log. Confined to the loop's thread.
final class LoopContext {
    let loop: EventLoop
    /// The loop's number among the server's loops (0 up to `threads` - 1).
    let index: Int
    let configuration: ServerConfiguration
    let handler: HTTPHandler
    let accessLog: AccessLog?
    /// Reads land here before a protocol consumes them (one buffer per loop, not per connection).
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Set when the server is shutting down.
    var shuttingDown = false

    init(loop: EventLoop, index: Int, configuration: ServerConfiguration, handler: @escaping HTTPHandler) {
        self.loop = loop
        self.index = index
        self.configuration = configuration
        self.handler = handler
        accessLog = configuration.accessLog.map { AccessLog(format: $0, fd: configuration.accessLogFD) }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Runs the handler and logs the request. An answer of more than a megabyte whose body is
    /// sent (`sendsBody`: not for HEAD) is counted in `LargeAnswerBudget`, or refused with a 503
    /// when the budget is spent: `heldBytes` is then what the caller gives back once the body
    /// was sent or dropped (it stays 0 for every other answer).
    func respond(
        to request: consuming HTTPRequest, sendsBody: Bool, startedAt: UInt64, heldBytes: inout Int
    ) -> HTTPResponse {
        guard let accessLog else {
            let response = handler(request)
            // One comparison for ordinary answers: a returned tuple or a copy of the response
            // cost a few hundred instructions a request.
            guard sendsBody && response.wholeBodyCount > LargeAnswerBudget.threshold else { return response }
            return LargeAnswerBudget.admit(response, heldBytes: &heldBytes, errorResponse: configuration.errorResponse)
        }
        // The log needs the request after the handler: only then is it copied.
        var response = handler(copy request)
        if case .deferred(let start) = response.body {
            // Logged when the answer comes, with its status. The line names no header and no
            // body: the request waits without them (a delay would hold a megabyte of body for
            // each request it holds back).
            var logged = request
            logged.body = []
            logged.headers = HTTPHeaders()
            let log = LoopBound(accessLog, loop: loop)
            let request = LoopBound(logged, loop: loop)
            return .deferred { later in
                start(later.observed { answer in
                    log.value.record(request.value, status: answer.status, bytes: Self.bodySize(answer), startedAt: startedAt)
                })
            }
        }
        if sendsBody && response.wholeBodyCount > LargeAnswerBudget.threshold {
            response = LargeAnswerBudget.admit(response, heldBytes: &heldBytes, errorResponse: configuration.errorResponse)
        }
        accessLog.record(request, status: response.status, bytes: Self.bodySize(response), startedAt: startedAt)
        return response
    }

    private static func bodySize(_ response: HTTPResponse) -> Int {
        switch response.body {
        case .bytes(let bytes): bytes.count
        case .stream, .deferred: 0
        }
    }

    /// Logs a request the server answered itself (protocol errors).
    func log(_ request: HTTPRequest, status: Int, startedAt: UInt64) {
        accessLog?.record(request, status: status, bytes: 0, startedAt: startedAt)
    }
}
