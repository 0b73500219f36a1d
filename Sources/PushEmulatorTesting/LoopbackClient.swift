import ByteCoding
import HTTPServer

/// The test library's client for its own emulator: HTTP/1.1 over loopback, each request on a thread
/// of its own so that a Swift task awaiting it does not block (a waiting read lasts up to a minute).
struct LoopbackClient: Sendable {
    private let base: String
    private let client = HTTPClient()

    init(base: String) throws(TestEmulatorError) {
        self.base = base
        do throws(HTTPClientError) {
            _ = try HTTPClientURL(base)
        } catch {
            throw TestEmulatorError("\(base): \(error)")
        }
    }

    /// Sends the request on a background thread and awaits the answer.
    func send(_ method: String, _ path: String, body: [UInt8] = [], headers: [(String, String)] = []) async throws -> HTTPClientResponse {
        let url: HTTPClientURL
        do {
            url = try HTTPClientURL(base + path)
        } catch {
            throw TestEmulatorError("\(path): \(error)")
        }
        let client = client
        let headers = (body.isEmpty ? [] : [("Content-Type", "application/json")]) + headers
        return try await withCheckedThrowingContinuation { continuation in
            BackgroundThread.detach {
                // A waiting read answers within its wait (60 s at most).
                continuation.resume(with: Result { () throws(HTTPClientError) in
                    try client.send(method, url, headers: headers, body: body, timeoutSeconds: 75)
                }.mapError { TestEmulatorError("\(method) \(path): \($0)") })
            }
        }
    }

    /// `send`, then the answer's JSON, which must come with `status`.
    func json(
        _ method: String, _ path: String, body: [UInt8] = [], expecting status: Int, headers: [(String, String)] = []
    ) async throws -> JSONValue {
        let response = try await send(method, path, body: body, headers: headers)
        guard response.status == status else {
            throw TestEmulatorError("\(method) \(path) answered \(response.status): \(response.text)")
        }
        do {
            return try JSONParser.parse(response.body)
        } catch {
            throw TestEmulatorError("\(method) \(path) answered what is not JSON: \(response.text)")
        }
    }
}
