import ByteCoding
import HTTPServer
import PushCore

/// Google-style error responses: the one way the HTTP face answers with a `GoogleError`.
enum GoogleErrorResponse {
    /// The error's own status and body, with `Retry-After` when it carries one.
    static func make(_ error: GoogleError) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let seconds = error.retryAfterSeconds { headers.set("retry-after", String(seconds)) }
        return .json(error.httpStatus, error.jsonBytes, headers: headers)
    }

    /// Errors the server raises itself (malformed HTTP, oversized bodies, timeouts): Google's body
    /// shape with the HTTP status that describes the failure (413, 431, ...).
    static func protocolError(status: Int, message: String) -> HTTPResponse {
        let json: JSONValue = [
            "error": ["code": .number(String(status)), "message": .string(message), "status": .string(rpcStatus(forHTTPStatus: status).rawValue)],
        ]
        return .json(status, JSONSerializer.serialize(json))
    }

    static func rpcStatus(forHTTPStatus status: Int) -> GoogleRPCStatus {
        switch status {
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .notFound
        case 405, 501, 505: .unimplemented
        case 408: .deadlineExceeded
        case 409: .alreadyExists
        case 429: .resourceExhausted
        case 503: .unavailable
        case 400..<500: .invalidArgument
        default: .internal
        }
    }
}

extension EmulatorApp {
    /// Renders errors the server raises itself: in Apple's format on the APNs provider API's
    /// paths (`APNsErrorResponse.serverError`), else in Google's.
    public var errorResponse: @Sendable (Int, String, String?) -> HTTPResponse {
        { status, message, path in
            if let path, APNsRoutes.isAPNsPath(path) { return APNsErrorResponse.serverError(status) }
            return GoogleErrorResponse.protocolError(status: status, message: message)
        }
    }
}
