#if canImport(Glibc)
import Glibc
#endif
import CNGHTTP2

/// HTTP/2 on a connection, driven by an nghttp2 server session fed from memory: bytes in through
/// `nghttp2_session_mem_recv`, frames out through `nghttp2_session_mem_send` into the connection's
/// output buffer. nghttp2's callbacks reach this object through the session's `user_data`
/// (unretained: the session is deleted in `deinit`, so it never outlives this object).
final class HTTP2Handler: ConnectionProtocol {
    /// Strong: the cycle with `Connection` is broken when the connection closes and drops its protocol.
    let connection: Connection
    private var session: OpaquePointer!
    /// The open streams, in no order: each knows its `slot` here, so that adding and removing one
    /// costs no hashing (nghttp2's stream user data finds a stream by id).
    private var streams: [HTTP2Stream] = []
    private let headerBlock = HTTP2HeaderBlock()
    private var skippedStreamIDs = HTTP2SkippedStreamIDs()
    /// Callbacks of streaming bytes copied into the DATA frame being made: they wait on the
    /// connection from the moment that frame is queued there.
    private var framedCallbacks: [SentCallback] = []
    /// Bytes the streaming responses of this connection hold unsent, all streams together.
    private var streamedBytes = 0
    private var shuttingDown = false
    private var failed = false
    /// A response asked for `ConnectionAction.reset`: done once nghttp2 has returned (its
    /// callbacks may be on the stack when the response comes).
    private var resetRequested = false
    /// A response asked for `ConnectionAction.goAwayAfterAnswer`: the GOAWAY goes out when this
    /// stream closes, so that it follows the stream's last frame.
    private var goAwayAfterStream: (id: Int32, debugData: [UInt8])?
    private let maxHeaderBytes: Int
    private let maxBodyBytes: Int

    init(connection: Connection) {
        self.connection = connection
        maxHeaderBytes = connection.context.configuration.maxHeaderBytes
        maxBodyBytes = connection.context.configuration.maxBodyBytes
        session = Self.makeSession(for: self)
        submitSettings()
    }

    /// Takes over after an HTTP/1.1 `Upgrade: h2c`: stream 1 is the request already read.
    convenience init(connection: Connection, upgrading request: HTTPRequest, settings: [UInt8]) {
        self.init(connection: connection)
        let result = settings.withUnsafeBufferPointer { buffer in
            nghttp2_session_upgrade2(session, buffer.baseAddress, buffer.count, request.method == "HEAD" ? 1 : 0, nil)
        }
        guard result == 0 else {
            failed = true
            nghttp2_session_terminate_session(session, UInt32(NGHTTP2_PROTOCOL_ERROR.rawValue))
            return
        }
        _ = useStreamID(1)
        let stream = HTTP2Stream(id: 1, handler: self)
        stream.method = request.method
        stream.path = request.path
        stream.query = request.query
        stream.authority = request.authority
        stream.headers = request.headers
        stream.body = request.body
        add(stream)
        dispatch(stream)
    }

    deinit {
        nghttp2_session_del(session)
    }

    private static func makeSession(for handler: HTTP2Handler) -> OpaquePointer {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, userData in
            guard let header, let userData, header.pointee.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
            var valid = true
            HTTP2Handler.with(userData) { valid = $0.useStreamID(header.pointee.stream_id) }
            // A callback failure makes `receive` end the connection with PROTOCOL_ERROR.
            return valid ? 0 : Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            HTTP2Handler.with(userData) { $0.beginHeaders(frame) }
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, userData in
            guard let frame, let name, let value, let userData else { return 0 }
            var keepDecoding = true
            HTTP2Handler.with(userData) {
                keepDecoding = $0.header(frame, UnsafeBufferPointer(start: name, count: nameLength), UnsafeBufferPointer(start: value, count: valueLength))
            }
            // Stops the block's callbacks and per-field checks; nghttp2 resets the stream.
            return keepDecoding ? 0 : Int32(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, userData in
            guard let data, let userData else { return 0 }
            HTTP2Handler.with(userData) { $0.data(streamID, UnsafeBufferPointer(start: data, count: length)) }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            HTTP2Handler.with(userData) { $0.frameReceived(frame) }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, userData in
            guard let userData else { return 0 }
            HTTP2Handler.with(userData) { $0.streamClosed(streamID) }
            return 0
        }
        var options: OpaquePointer?
        nghttp2_option_new(&options)
        defer { nghttp2_option_del(options) }
        // Caps the PING and SETTINGS acknowledgements and RST_STREAM frames queued for a client
        // that does not read them: past it nghttp2 ends the session (docs/server.md, floods).
        nghttp2_option_set_max_outbound_ack(options, 1000)
        var session: OpaquePointer?
        let result = nghttp2_session_server_new2(&session, callbacks, Unmanaged.passUnretained(handler).toOpaque(), options)
        precondition(result == 0 && session != nil, "nghttp2_session_server_new2 failed: \(result)")
        return session!
    }

    /// Runs `body` on the handler behind nghttp2's `user_data`: the session, whose callbacks call
    /// this, never outlives the handler.
    private static func with(_ userData: UnsafeMutableRawPointer, _ body: (HTTP2Handler) -> Void) {
        body(Unmanaged<HTTP2Handler>.fromOpaque(userData).takeUnretainedValue())
    }

    /// No SETTINGS_MAX_HEADER_LIST_SIZE is advertised: nghttp2 would refuse an oversized stream
    /// (clients retry REFUSED_STREAM), while counting in `header` answers it with a clear 431.
    private func submitSettings() {
        let configuration = connection.context.configuration
        let streamLimit =
            configuration.initialConcurrentStreams.flatMap { $0(connection.session.serverName) }
            ?? configuration.maxConcurrentStreams
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: streamLimit),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1_048_576),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        // Let request bodies flow without waiting for per-connection WINDOW_UPDATEs.
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 16_777_216)
    }

    // MARK: ConnectionProtocol

    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !failed else { return }
        let result = nghttp2_session_mem_recv(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if resetRequested { return connection.reset() }
        if result < 0 {
            // A protocol error, a bad connection preface among them: GOAWAY PROTOCOL_ERROR (where
            // nghttp2 has queued a GOAWAY of its own, that one goes out), then close.
            failed = true
            nghttp2_session_terminate_session(session, UInt32(NGHTTP2_PROTOCOL_ERROR.rawValue))
            connection.closeAfterFlush()
        }
    }

    func fillOutput() {
        while connection.pendingOutput < Connection.outputHighWater {
            var data: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &data)
            if length < 0 {
                failed = true
                connection.closeAfterFlush()
                return
            }
            guard length > 0, let data else { break }
            connection.send(UnsafeRawBufferPointer(start: data, count: length))
            if !framedCallbacks.isEmpty {
                for callback in moveOut(&framedCallbacks, leaving: []) { connection.whenSent(callback) }
            }
        }
        if !failed && nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 {
            connection.closeAfterFlush()
        }
    }

    var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }
    func expireSlowRequests(now: UInt64, headerLimit: UInt64, bodyLimit: UInt64) -> Bool {
        guard !failed, !streams.isEmpty else { return false }
        // A header block blocks the whole connection until it ends (CONTINUATION frames may not
        // interleave), so an unfinished one ends the connection.
        if let stream = headerBlock.stream, now &- stream.startedAt > headerLimit {
            failed = true
            nghttp2_session_terminate_session(session, UInt32(NGHTTP2_NO_ERROR.rawValue))
            connection.closeAfterFlush()
            return true
        }
        var expired = false
        for stream in streams where !stream.dispatched && now &- stream.startedAt > bodyLimit {
            stream.rejection = 408
            stream.body = []
            dispatch(stream)
            expired = true
        }
        return expired
    }
    var isStreaming: Bool { streams.contains { $0.responseStream != nil || $0.deferred != nil } }

    func peerClosed() {
        finishAllStreams()
    }

    func beginShutdown() {
        guard !shuttingDown else { return }
        shuttingDown = true
        let last = nghttp2_session_get_last_proc_stream_id(session)
        nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, UInt32(NGHTTP2_NO_ERROR.rawValue), nil, 0)
        // Streaming responses never end on their own: end them so the client gets a clean close.
        for stream in streams where stream.responseStream != nil {
            stream.responseStream?.finish()
        }
    }

    func connectionClosed() {
        // Unsent writes are settled first, as in `Connection.close`.
        for callback in moveOut(&framedCallbacks, leaving: []) { callback(false) }
        for stream in streams { forgetPending(of: stream) }
        finishAllStreams()
        headerBlock.begin(nil)
        for stream in streams {
            stream.handler = nil
            stream.slot = nil
        }
        streams = []
    }

    func timedOut() {
        nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session), UInt32(NGHTTP2_NO_ERROR.rawValue), nil, 0)
        connection.closeAfterFlush()
    }

    private func finishAllStreams() {
        for stream in streams {
            stream.responseStream?.clientLeft()
            stream.responseStream = nil
            if let deferred = stream.deferred {
                deferred.cancel()
                stream.deferred = nil
            }
        }
    }

    // MARK: nghttp2 callbacks

    private func beginHeaders(_ frame: UnsafePointer<nghttp2_frame>) {
        guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else {
            headerBlock.begin(nil)
            return
        }
        if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
            let stream = HTTP2Stream(id: frame.pointee.hd.stream_id, handler: self)
            add(stream)
            headerBlock.begin(stream)
        } else {
            // Trailers join the stream's headers.
            headerBlock.begin(stream(frame.pointee.hd.stream_id))
        }
    }

    /// Records a HEADERS frame's stream id; false when it opens a stream skipped earlier.
    private func useStreamID(_ id: Int32) -> Bool {
        var skipped = moveOut(&skippedStreamIDs, leaving: HTTP2SkippedStreamIDs())
        let valid = skipped.use(id)
        skippedStreamIDs = skipped
        return valid
    }

    /// Tracks a new stream; nghttp2 keeps an unretained pointer to it so that callbacks find it
    /// without a lookup of ours (`streams` holds it until `streamClosed`).
    private func add(_ stream: HTTP2Stream) {
        stream.slot = streams.count
        var streams = moveOut(&self.streams, leaving: [])
        streams.append(stream)
        self.streams = streams
        nghttp2_session_set_stream_user_data(session, stream.id, Unmanaged.passUnretained(stream).toOpaque())
    }

    /// The open stream with this id, or nil.
    private func stream(_ id: Int32) -> HTTP2Stream? {
        guard let pointer = nghttp2_session_get_stream_user_data(session, id) else { return nil }
        return Unmanaged<HTTP2Stream>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Records one header field; false when the block has decoded to more than twice the
    /// header limit (an HPACK bomb: one table entry referenced thousands of times), so that
    /// nghttp2 stops checking and handing over the rest of it.
    private func header(_ frame: UnsafePointer<nghttp2_frame>, _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let stream = headerBlock.stream else { return true }
        header(frame, stream, name, value)
        return stream.headerBytes <= 2 * maxHeaderBytes
    }

    private func header(
        _ frame: UnsafePointer<nghttp2_frame>, _ stream: HTTP2Stream, _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>
    ) {
        // Header blocks do not interleave, so the block's stream is the frame's.
        guard stream.id == frame.pointee.hd.stream_id, !stream.dispatched else { return }
        stream.headerBytes += name.count + value.count + 32
        if stream.headerBytes > maxHeaderBytes {
            stream.rejection = 431
            return
        }
        if name.first == UInt8(ascii: ":") {
            // nghttp2 has validated the pseudo-headers; only these three are kept.
            switch (name.count, name.count > 1 ? name[1] : 0) {
            case (7, UInt8(ascii: "m")): stream.method = String(decoding: value, as: UTF8.self)
            case (5, UInt8(ascii: "p")): (stream.path, stream.query) = HTTPRequest.split(target: value)
            case (10, UInt8(ascii: "a")): stream.authority = String(decoding: value, as: UTF8.self)
            default: break
            }
        } else {
            // nghttp2 has already rejected upper-case names.
            headerBlock.append(name, value)
        }
    }

    private func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream = stream(streamID), stream.rejection == nil else { return }
        if stream.body.count + bytes.count > maxBodyBytes {
            stream.rejection = 413
            stream.body = []
            // Answer now rather than reading a body we will not use.
            dispatch(stream)
            return
        }
        // A body usually comes in one DATA frame: copied into an array of its size at once,
        // which costs less than appending to the empty one.
        if stream.body.isEmpty {
            stream.body = Array(bytes)
        } else {
            var body = moveOut(&stream.body, leaving: [])
            body += bytes
            stream.body = body
        }
    }

    private func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        let type = frame.pointee.hd.type
        if type == UInt8(NGHTTP2_HEADERS.rawValue), let stream = headerBlock.stream, stream.id == frame.pointee.hd.stream_id {
            if !stream.dispatched && stream.rejection == nil {
                var headers = moveOut(&stream.headers, leaving: HTTPHeaders())
                headerBlock.finish(into: &headers)
                stream.headers = headers
            }
            headerBlock.begin(nil)
        }
        guard type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue),
              frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 else { return }
        // A strong reference: dispatching runs the application's handler.
        guard let stream = stream(frame.pointee.hd.stream_id), !stream.dispatched else { return }
        dispatch(stream)
    }

    private func streamClosed(_ streamID: Int32) {
        // A strong reference: removing the stream from `streams` may release the last other one.
        guard let stream = stream(streamID), let slot = stream.slot else { return }
        // The last stream moves into the closed one's slot (moved out, not swapped: a swap
        // checked uniqueness and retained).
        var streams = moveOut(&self.streams, leaving: [])
        if slot == streams.count - 1 {
            streams.removeLast()
        } else {
            let last = streams.removeLast()
            streams[slot] = last
            last.slot = slot
        }
        self.streams = streams
        stream.slot = nil
        forgetPending(of: stream)
        // Written only when set: storing nil over nil still calls into the runtime to release it.
        if let responseStream = stream.responseStream {
            responseStream.clientLeft()
            stream.responseStream = nil
        }
        if let deferred = stream.deferred {
            deferred.cancel()
            stream.deferred = nil
        }
        if let goAway = goAwayAfterStream, goAway.id == streamID {
            goAwayAfterStream = nil
            // Later streams whose requests were taken already are covered too: their answers come.
            submitGoAway(lastStreamID: max(streamID, lastAnswering() ?? 0), debugData: goAway.debugData)
        }
        stream.handler = nil
    }

    // MARK: responses

    private func dispatch(_ stream: HTTP2Stream) {
        stream.dispatched = true
        let context = connection.context
        if let status = stream.rejection {
            let message = switch status {
            case 413: "The request body is larger than the limit of \(context.configuration.maxBodyBytes) bytes."
            case 408: "The request body was not received in time."
            default: "The request's header block is larger than the limit of \(context.configuration.maxHeaderBytes) bytes."
            }
            context.log(
                HTTPRequest(
                    method: stream.method, path: stream.path, query: stream.query, headers: HTTPHeaders(), body: [],
                    version: .http2, isSecure: connection.isSecure, authority: stream.authority,
                    remoteAddress: connection.remoteAddress
                ),
                status: status, startedAt: stream.startedAt
            )
            stream.body = []
            submit(context.configuration.errorResponse(status, message, stream.path), for: stream, head: false)
            return
        }
        // Read on the stream: a look at the taken request's body made the request's fields copied
        // rather than moved into the `HTTPRequest` (about 300 instructions a request).
        if stream.body.count >= Connection.largeRequestBody { FreeMemory.releaseSoon() }
        let request = stream.takeRequest()
        let head = request.method == "HEAD"
        var held = 0
        let response = context.respond(
            to: HTTPRequest(
                method: request.method, path: request.path, query: request.query, headers: request.headers, body: request.body,
                version: .http2, isSecure: connection.isSecure, authority: request.authority,
                remoteAddress: connection.remoteAddress, connection: connection.session
            ),
            sendsBody: !head, startedAt: stream.startedAt, heldBytes: &held
        )
        // Counted until the body is all framed, or dropped (`forgetPending`).
        if held > 0 { stream.heldAnswerBytes = held }
        submit(response, for: stream, head: head)
        if let limit = connection.session.takeRequestedStreamLimit() {
            var settings = [nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: limit)]
            nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        }
    }

    private func submit(_ response: HTTPResponse, for stream: HTTP2Stream, head: Bool) {
        if case .deferred(let start) = response.body {
            // The cycle through the closure ends when the answer comes or the stream closes.
            let later = DeferredResponse(loop: connection.context.loop) { [self] answer in
                guard stream.deferred != nil, stream.slot != nil, stream.handler === self else { return }
                stream.deferred = nil
                submit(answer, for: stream, head: head)
                if resetRequested { return connection.reset() }
                connection.flush()
            }
            stream.deferred = later
            start(later)
            return
        }
        if let action = response.connectionAction {
            switch action {
            case .reset:
                resetRequested = true
                return
            case .goAwayUnanswered(let debugData):
                refuse(stream, goAwayDebugData: debugData)
                return
            case .goAwayAfterAnswer(let debugData):
                goAwayAfterStream = (stream.id, debugData)
            }
        }
        let contentLength: Int?
        var hasBody = true
        switch response.body {
        case .bytes(let bytes):
            contentLength = bytes.count
            // A new exchange's stream holds no body yet.
            if !head { stream.appendPending(bytes) }
            stream.bodyComplete = true
            hasBody = !head && !bytes.isEmpty
        case .stream:
            contentLength = nil
            stream.bodyComplete = head
            hasBody = !head
        case .deferred:
            return  // Taken care of above.
        }
        // The stream is the data source: `streams` keeps it alive for as long as nghttp2 may read.
        var provider = nghttp2_data_provider(
            source: nghttp2_data_source(ptr: Unmanaged.passUnretained(stream).toOpaque()),
            read_callback: { _, _, buffer, length, flags, source, _ in
                guard let buffer, let flags, let pointer = source?.pointee.ptr else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
                let stream = Unmanaged<HTTP2Stream>.fromOpaque(pointer).takeUnretainedValue()
                return HTTP2Handler.readBody(stream, UnsafeMutableRawBufferPointer(start: buffer, count: length), flags)
            }
        )
        // Plain values for the closure, not `self` and the stream: capturing objects retained and
        // released them for each response.
        let session = session
        let streamID = stream.id
        var headBytes = moveOut(&stream.headBytes, leaving: HTTP2HeadBytes())
        HTTP2ResponseHead.withNameValuePairs(
            status: response.status, headers: response.headers, contentLength: contentLength,
            headBytes: &headBytes
        ) { pairs in
            if hasBody {
                _ = nghttp2_submit_response(session, streamID, pairs.baseAddress, pairs.count, &provider)
            } else {
                _ = nghttp2_submit_response(session, streamID, pairs.baseAddress, pairs.count, nil)
            }
        }
        // Swapped back rather than assigned: assigning would run the empty one's deinit inside
        // the access to the property.
        swap(&stream.headBytes, &headBytes)
        if case .stream(let start) = response.body {
            guard !head else { return ResponseStream.startClosed(start, sink: stream, loop: connection.context.loop) }
            let responseStream = ResponseStream(sink: stream, loop: connection.context.loop)
            stream.responseStream = responseStream
            start(responseStream)
        }
    }

    /// Ends the connection telling the client that `stream` was not processed (so it may retry
    /// it): a GOAWAY whose last-stream-id is below the stream — nghttp2 closes the streams above
    /// it once it is sent. When a later stream is being answered already, the GOAWAY's
    /// last-stream-id is that one, so that its answer still comes, and `stream` alone is refused
    /// with RST_STREAM REFUSED_STREAM, which says the same of it (RFC 9113 §8.7).
    private func refuse(_ stream: HTTP2Stream, goAwayDebugData: [UInt8]) {
        guard let answering = lastAnswering(), answering > stream.id else {
            return submitGoAway(lastStreamID: max(stream.id - 2, 0), debugData: goAwayDebugData)
        }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id, UInt32(NGHTTP2_REFUSED_STREAM.rawValue))
        submitGoAway(lastStreamID: answering, debugData: goAwayDebugData)
    }

    /// The highest open stream whose request has been taken (it is being answered), if any.
    private func lastAnswering() -> Int32? {
        streams.lazy.filter(\.dispatched).map(\.id).max()
    }

    /// Queues a GOAWAY (NO_ERROR) that ends the connection: nghttp2 takes no new stream after
    /// it, and `fillOutput` closes the connection once the streams up to `lastStreamID` are done.
    private func submitGoAway(lastStreamID: Int32, debugData: [UInt8]) {
        debugData.withUnsafeBufferPointer { data in
            _ = nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStreamID, UInt32(NGHTTP2_NO_ERROR.rawValue),
                data.baseAddress, data.count)
        }
    }

    private static func readBody(_ stream: HTTP2Stream, _ buffer: UnsafeMutableRawBufferPointer, _ flags: UnsafeMutablePointer<UInt32>) -> Int {
        let count = min(buffer.count, stream.pendingCount)
        if count > 0 {
            stream.framePending(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
            if stream.isStreamed { stream.handler?.streamedBytes -= count }
            if let framed = stream.takeFramedCallbacks(), let handler = stream.handler {
                var callbacks = moveOut(&handler.framedCallbacks, leaving: [])
                callbacks += framed
                handler.framedCallbacks = callbacks
            }
        }
        if stream.pendingCount == 0 {
            if stream.heldAnswerBytes > 0 { stream.releaseHeldAnswer() }
            if stream.bodyComplete {
                flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
            } else if count == 0 {
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        return count
    }

    /// Drops what a stream holds unsent (its callbacks learn it was not sent).
    private func forgetPending(of stream: HTTP2Stream) {
        if stream.isStreamed { streamedBytes -= stream.pendingCount }
        stream.pending = OutputBuffer()
        if stream.heldAnswerBytes > 0 { stream.releaseHeldAnswer() }
        stream.dropUnsent()
    }

    /// More streaming body (or its end) is ready: wake the deferred data provider and send.
    func resume(_ stream: HTTP2Stream) {
        guard stream.slot != nil else { return }
        nghttp2_session_resume_data(session, stream.id)
        connection.flush()
    }

    /// Counts `count` more bytes written by a streaming response; false when the connection's
    /// streaming responses now hold more than `Connection.outputLimit` unsent.
    func streamed(_ count: Int) -> Bool {
        streamedBytes += count
        if streamedBytes > Connection.largeOutput { connection.heldLargeOutput = true }
        return streamedBytes + connection.pendingOutput <= Connection.outputLimit
    }

    /// Gives up on a stream whose client is not reading.
    func reset(_ stream: HTTP2Stream) {
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id, UInt32(NGHTTP2_CANCEL.rawValue))
        stream.responseStream?.clientLeft()
        forgetPending(of: stream)
        connection.flush()
    }
}
