/// Handles one request, synchronously, on the connection's loop.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps method + path to a handler. Templates are paths whose segments are literals, `{param}`,
/// or `{param}:verb` (Google's custom-method suffix, e.g. `/v1/projects/{project}/messages:send`,
/// `/devices/{token}:stream`). More specific templates win: literal segments over `{param}:verb`
/// over `{param}`.
public struct Router: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(name: String, verb: String?)

        var rank: Int {
            switch self {
            case .literal: 2
            case .parameter(_, let verb): verb == nil ? 0 : 1
            }
        }
    }

    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: HTTPHandler
    }

    private var routes: [Route] = []
    /// Answers a path no route matches.
    public var notFound: HTTPHandler
    /// Answers a path some route matches with another method; gets the allowed methods.
    public var methodNotAllowed: @Sendable (HTTPRequest, [String]) -> HTTPResponse

    /// Makes a router with plain-text 404 and 405 answers.
    public init() {
        notFound = { _ in .text(404, "Not Found\n") }
        methodNotAllowed = { _, allowed in
            var response = HTTPResponse.text(405, "Method Not Allowed\n")
            response.headers.set("allow", allowed.joined(separator: ", "))
            return response
        }
    }

    /// Adds a route.
    public mutating func add(_ method: String, _ template: String, _ handler: @escaping HTTPHandler) {
        let segments = Self.split(template).map { part -> Segment in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            let name = String(part[part.index(after: part.startIndex)..<close])
            let rest = part[part.index(after: close)...]
            return .parameter(name: name, verb: rest.hasPrefix(":") ? String(rest.dropFirst()) : nil)
        }
        routes.append(Route(method: method, segments: segments, handler: handler))
        // Most specific first, so that the first match is the right one.
        routes.sort { lhs, rhs in
            for (left, right) in zip(lhs.segments, rhs.segments) where left.rank != right.rank {
                return left.rank > right.rank
            }
            return false
        }
    }

    /// Answers a request with the matching route's handler, or 404/405.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let parts = Self.split(request.path)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.match(route.segments, parts) else { continue }
            if route.method == request.method || (request.method == "HEAD" && route.method == "GET") {
                var request = request
                request.pathParameters = parameters
                return route.handler(request)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? notFound(request) : methodNotAllowed(request, allowed)
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    private static func match(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name, let verb):
                var value = part
                if let verb {
                    guard part.hasSuffix(":" + verb) else { return nil }
                    value = part.dropLast(verb.utf8.count + 1)
                }
                guard !value.isEmpty, let decoded = PercentDecoding.decode(value) else { return nil }
                parameters[name] = decoded
            }
        }
        return parameters
    }
}
