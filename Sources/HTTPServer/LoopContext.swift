/// What every connection on one loop shares: the configuration, the handler, a scratch read buffer
/// and the access log. Confined to the loop's thread.
final class LoopContext {
    let loop: EventLoop
    let configuration: ServerConfiguration
    let handler: HTTPHandler
    let accessLog: AccessLog?
    /// Reads land here before a protocol consumes them (one buffer per loop, not per connection).
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Where HTTP/2 input is rewritten with repeated header values decoded (`RepeatedLiteralRewriter`):
    /// a read's bytes, and room for the values to grow.
    let rewriteBuffer: UnsafeMutableRawBufferPointer
    /// Set when the server is shutting down.
    var shuttingDown = false

    init(loop: EventLoop, configuration: ServerConfiguration, handler: @escaping HTTPHandler) {
        self.loop = loop
        self.configuration = configuration
        self.handler = handler
        accessLog = configuration.accessLog.map { AccessLog(format: $0, fd: configuration.accessLogFD) }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        rewriteBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * 65_536, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
        rewriteBuffer.deallocate()
    }

    /// Runs the handler and logs the request. An answer of more than a megabyte whose body is
    /// sent (`sendsBody`: not for HEAD) is counted in `LargeAnswerBudget`, or refused with a 503
    /// when the budget is spent: `held` is what the caller gives back once the body was sent or
    /// dropped.
    func respond(to request: consuming HTTPRequest, sendsBody: Bool, startedAt: UInt64) -> (response: HTTPResponse, held: Int) {
        guard let accessLog else { return admit(handler(request), sendsBody: sendsBody) }
        // The log needs the request after the handler: only then is it copied.
        let response = handler(copy request)
        if case .deferred(let start) = response.body {
            // Logged when the answer comes, with its status. The line names no header and no
            // body: the request waits without them (a delay would hold a megabyte of body for
            // each request it holds back).
            var logged = request
            logged.body = []
            logged.headers = HTTPHeaders()
            let log = LoopBound(accessLog, loop: loop)
            let request = LoopBound(logged, loop: loop)
            return (.deferred { later in
                start(later.observed { answer in
                    log.value.record(request.value, status: answer.status, bytes: Self.bodySize(answer), startedAt: startedAt)
                })
            }, 0)
        }
        let admitted = admit(response, sendsBody: sendsBody)
        accessLog.record(request, status: admitted.response.status, bytes: Self.bodySize(admitted.response), startedAt: startedAt)
        return admitted
    }

    @inline(__always)
    private func admit(_ response: HTTPResponse, sendsBody: Bool) -> (response: HTTPResponse, held: Int) {
        guard sendsBody else { return (response, 0) }
        return LargeAnswerBudget.admit(response, errorResponse: configuration.errorResponse)
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
