/// Handles one request, synchronously, on the connection's loop. The request is handed over
/// (`consuming`) so that it moves from the server through the router to the route without copies.
public typealias HTTPHandler = @Sendable (consuming HTTPRequest) -> HTTPResponse

/// Maps method + path to a handler. Templates are paths whose segments are literals, `{param}`,
/// or `{param}:verb` (Google's custom-method suffix, e.g. `/v1/projects/{project}/messages:send`,
/// `/devices/{token}:stream`). More specific templates win: literal segments over `{param}:verb`
/// over `{param}`.
public struct Router: Sendable {
    private enum Segment: Sendable, Equatable {
        /// The segment's bytes.
        case literal([UInt8])
        /// `verb` holds the suffix's bytes with its leading `:`.
        case parameter(name: String, verb: [UInt8]?)

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
        let parts = template.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        let segments = parts.map { part -> Segment in
            guard part.first == UInt8(ascii: "{"), let close = part.firstIndex(of: UInt8(ascii: "}")) else {
                return .literal(Array(part))
            }
            let name = String(decoding: part[part.index(after: part.startIndex)..<close], as: UTF8.self)
            let rest = part[part.index(after: close)...]
            return .parameter(name: name, verb: rest.first == UInt8(ascii: ":") ? Array(rest) : nil)
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
    public func handle(_ request: consuming HTTPRequest) -> HTTPResponse {
        var path = request.path
        let method = request.method
        // Matching works on the path's bytes in place: every request walks the route list, so it
        // must not allocate until a route has matched.
        // The route's position, not a copy of it: a copy would retain and release its fields.
        let found: Int?
        var parameters = PathParameters()
        var allowed: [String] = []
        found = path.withUTF8 { bytes in
            let partCount = bytes.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
            return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: partCount) { parts in
                Self.splitSegments(bytes, into: parts)
                for index in routes.indices where Self.matches(routes[index].segments, bytes, parts) {
                    // A malformed percent escape in a parameter means this route does not match.
                    guard let decoded = Self.parameters(routes[index].segments, bytes, parts) else { continue }
                    let routeMethod = routes[index].method
                    if routeMethod == method || (method == "HEAD" && routeMethod == "GET") {
                        parameters = decoded
                        return index
                    }
                    if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
                }
                return nil
            }
        }
        if let found {
            request.pathParameters = parameters
            return routes[found].handler(request)
        }
        return allowed.isEmpty ? notFound(request) : methodNotAllowed(request, allowed)
    }

    /// The byte ranges of the path's segments after the first `/` (one per `/`).
    private static func splitSegments(_ bytes: UnsafeBufferPointer<UInt8>, into parts: UnsafeMutableBufferPointer<Range<Int>>) {
        var index = 0
        var start = -1
        for position in bytes.indices where bytes[position] == UInt8(ascii: "/") {
            if start >= 0 {
                parts[index] = start..<position
                index += 1
            }
            start = position + 1
        }
        if start >= 0 { parts[index] = start..<bytes.count }
    }

    /// True when the path has the template's shape (parameters are not decoded yet).
    private static func matches(_ segments: [Segment], _ bytes: UnsafeBufferPointer<UInt8>, _ parts: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        guard segments.count == parts.count else { return false }
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard equal(bytes, part, literal) else { return false }
            case .parameter(_, let verb):
                guard let verb else {
                    if part.isEmpty { return false }
                    continue
                }
                guard part.count > verb.count, equal(bytes, part.upperBound - verb.count..<part.upperBound, verb) else { return false }
            }
        }
        return true
    }

    /// The decoded parameters of a path that `matches` the template, or nil when one is malformed.
    private static func parameters(_ segments: [Segment], _ bytes: UnsafeBufferPointer<UInt8>, _ parts: UnsafeMutableBufferPointer<Range<Int>>) -> PathParameters? {
        var parameters = PathParameters()
        for (segment, part) in zip(segments, parts) {
            guard case .parameter(let name, let verb) = segment else { continue }
            let value = UnsafeBufferPointer(rebasing: bytes[part.lowerBound..<part.upperBound - (verb?.count ?? 0)])
            guard let decoded = PercentDecoding.decode(value) else { return nil }
            parameters.append(name: name, value: decoded)
        }
        return parameters
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: [UInt8]) -> Bool {
        guard range.count == literal.count else { return false }
        return literal.withUnsafeBufferPointer { literal in
            var index = 0
            while index < literal.count {
                if bytes[range.lowerBound + index] != literal[index] { return false }
                index += 1
            }
            return true
        }
    }
}
