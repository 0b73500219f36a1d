#if canImport(Glibc)
import Glibc
#endif

/// Handles one request, synchronously, on the connection's loop. The request is handed over
/// (`consuming`) so that it moves from the server through the router to the route without copies.
public typealias HTTPHandler = @Sendable (consuming HTTPRequest) -> HTTPResponse
/// Checks a request before a route's handler (`Router.routeGuard`): a response refuses it.
public typealias HTTPGuard = @Sendable (borrowing HTTPRequest) -> HTTPResponse?

/// Told of every request the router answers: the route that matched (its template, not the path,
/// so that there are as many values as routes), the request's method, the response's status, and
/// the number of the loop that read the request (`ConnectionSession.loop`; 0 for a request made by
/// hand). Runs after the handler, on the connection's loop (a deferred answer's, where it answers).
public typealias RouteObserver = @Sendable (_ route: MatchedRoute, _ method: String, _ status: Int, _ loop: Int) -> Void

/// The route that answered a request, as `Router.observer` is told of it.
public struct MatchedRoute: Sendable {
    /// The route's number, in the order routes were added (the first is 0), or -1 when no route
    /// matched: a key that costs less to look up than the template.
    public let number: Int
    /// The route's template, or `Router.unmatchedRoute`.
    public let template: String

    /// A route.
    public init(number: Int, template: String) {
        self.number = number
        self.template = template
    }
}

/// Maps method + path to a handler. Templates are paths whose segments are literals, `{param}`,
/// or `{param}:verb` (Google's custom-method suffix, e.g. `/v1/projects/{project}/messages:send`,
/// `/devices/{token}:stream`). More specific templates win: literal segments over `{param}:verb`
/// over `{param}`.
public struct Router: Sendable {
    /// A template segment: plain values, its bytes kept in the router's `text`, so that matching
    /// reads segments through pointers without retaining anything.
    private struct Segment: Sendable {
        enum Kind: Sendable {
            case literal
            case parameter
            /// `{param}:verb`.
            case parameterWithVerb
        }

        let kind: Kind
        /// Where in the router's `text` the literal's bytes are, or the verb's with its leading `:`.
        let text: Range<Int>
        /// The parameter's position in its route's `names`.
        let name: Int

        var rank: Int {
            switch kind {
            case .literal: 2
            case .parameterWithVerb: 1
            case .parameter: 0
            }
        }
    }

    private struct Route: Sendable {
        let method: String
        /// The route as the observer is told of it.
        let matched: MatchedRoute
        /// Where in the router's `segments` the template's are.
        let segments: Range<Int>
        /// The parameters' names, in the template's order.
        let names: [String]
        let handler: HTTPHandler
        /// Whether `routeGuard` sees its requests first (its template starts with `guardedPrefix`).
        let isGuarded: Bool
    }

    /// Every template's segments, back to back.
    private var segments: [Segment] = []
    /// Every literal's and verb's bytes, back to back.
    private var text: [UInt8] = []
    /// Most specific first, so that the first match is the right one.
    private var routes: [Route] = []
    /// The routes again, grouped by segment count (each group in `routes`' order), with where
    /// each count's group starts in `routeStarts`: a path is compared only with the templates
    /// of its own length, not walked through the whole list (templates of different lengths
    /// never match the same path).
    private var routesByLength: [Route] = []
    private var routeStarts: [Int] = [0]
    /// Answers a path no route matches.
    public var notFound: HTTPHandler
    /// Answers a path some route matches with another method; gets the allowed methods.
    public var methodNotAllowed: @Sendable (HTTPRequest, [String]) -> HTTPResponse
    /// Checks a matched route's path parameters before its handler runs: an answer refuses the
    /// request with it (e.g. a malformed id that no handler should see); nil lets it through.
    public var checkParameters: (@Sendable (PathParameters) -> HTTPResponse?)?
    /// Told of every answer (e.g. to count requests by route); nil costs nothing.
    public var observer: RouteObserver?
    /// The routes added while this is set whose template starts with it get `routeGuard` before
    /// their handler: decided once per route when it is added, so that the other routes' requests
    /// pay nothing for it.
    public var guardedPrefix: String?
    /// Checks a guarded route's request before its handler runs: an answer refuses the request
    /// with it; nil lets it through.
    public var routeGuard: HTTPGuard?
    /// The template the observer gets for a path that no route matches.
    public static let unmatchedRoute = "(unmatched)"
    private static let unmatched = MatchedRoute(number: -1, template: unmatchedRoute)

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
        var names: [String] = []
        let first = segments.count
        for part in parts {
            let start = text.count
            guard part.first == UInt8(ascii: "{"), let close = part.firstIndex(of: UInt8(ascii: "}")) else {
                text += part
                segments.append(Segment(kind: .literal, text: start..<text.count, name: 0))
                continue
            }
            names.append(String(decoding: part[part.index(after: part.startIndex)..<close], as: UTF8.self))
            let rest = part[part.index(after: close)...]
            guard rest.first == UInt8(ascii: ":") else {
                segments.append(Segment(kind: .parameter, text: start..<start, name: names.count - 1))
                continue
            }
            text += rest
            segments.append(Segment(kind: .parameterWithVerb, text: start..<text.count, name: names.count - 1))
        }
        let matched = MatchedRoute(number: routes.count, template: template)
        let isGuarded = guardedPrefix.map { template.hasPrefix($0) } ?? false
        routes.append(Route(
            method: method, matched: matched, segments: first..<segments.count, names: names, handler: handler,
            isGuarded: isGuarded))
        routes.sort { [segments] lhs, rhs in
            for (left, right) in zip(segments[lhs.segments], segments[rhs.segments]) where left.rank != right.rank {
                return left.rank > right.rank
            }
            return false
        }
        let longest = routes.map(\.segments.count).max() ?? 0
        routesByLength = []
        routeStarts = [0]
        for length in 0...longest {
            routesByLength += routes.filter { $0.segments.count == length }
            routeStarts.append(routesByLength.count)
        }
    }

    /// Answers a request with the matching route's handler, or 404/405, and tells the observer.
    public func handle(_ request: consuming HTTPRequest) -> HTTPResponse {
        guard let observer else { return route(request).response }
        let method = request.method
        let loop = request.connection?.loop ?? 0
        let (response, matched) = route(request)
        if case .deferred(let start) = response.body {
            // Told when the answer comes, with its status.
            return .deferred { later in
                start(later.observed { answer in observer(matched, method, answer.status, loop) })
            }
        }
        observer(matched, method, response.status, loop)
        return response
    }

    /// The answer and the route that gave it: the matching route, or for a 405 the first route
    /// whose template the path matched, or `unmatched`.
    private func route(_ request: consuming HTTPRequest) -> (response: HTTPResponse, route: MatchedRoute) {
        var path = request.path
        let method = request.method
        // Matching works on the path's bytes in place: every request walks the route list, so it
        // must not allocate until a route has matched.
        var allowed: [String] = []
        var firstMatch = -1
        // The route's position, not a copy of it: a copy would retain and release its fields.
        let found: Int? = path.withUTF8 { bytes in
            // Room for the longest template's segments: a path with more matches no route.
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: routeStarts.count - 1) { room in
                guard let partCount = Self.splitSegments(bytes, into: room), partCount + 1 < routeStarts.count else { return nil }
                let parts = UnsafeMutableBufferPointer(rebasing: room[..<partCount])
                return segments.withUnsafeBufferPointer { segments in
                    text.withUnsafeBufferPointer { text -> Int? in
                        for index in routeStarts[partCount]..<routeStarts[partCount + 1] {
                            let template = UnsafeBufferPointer(rebasing: segments[routesByLength[index].segments])
                            guard Self.matches(template, text, bytes, parts) else { continue }
                            // A malformed percent escape in a parameter means this route does not match.
                            guard let decoded = Self.parameters(template, routesByLength[index].names, bytes, parts) else { continue }
                            let routeMethod = routesByLength[index].method
                            if routeMethod == method || (method == "HEAD" && routeMethod == "GET") {
                                request.pathParameters = decoded
                                return index
                            }
                            if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
                            if firstMatch < 0 { firstMatch = index }
                        }
                        return nil
                    }
                }
            }
        }
        if let found {
            let matched = routesByLength[found].matched
            if routesByLength[found].isGuarded, let routeGuard, let refusal = routeGuard(request) { return (refusal, matched) }
            if let checkParameters, let refusal = checkParameters(request.pathParameters) { return (refusal, matched) }
            return (routesByLength[found].handler(request), matched)
        }
        if allowed.isEmpty { return (notFound(request), Self.unmatched) }
        return (methodNotAllowed(request, allowed), routesByLength[firstMatch].matched)
    }

    /// Puts the byte ranges of the path's segments after the first `/` (one per `/`) at the start
    /// of `parts` and returns how many there are, or nil when there are more than fit. The
    /// slashes are found with `memchr`: a byte-by-byte walk cost ~5 instructions a byte.
    private static func splitSegments(_ bytes: UnsafeBufferPointer<UInt8>, into parts: UnsafeMutableBufferPointer<Range<Int>>) -> Int? {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var start = -1
        var position = 0
        while position < bytes.count, let found = memchr(base + position, Int32(UInt8(ascii: "/")), bytes.count - position) {
            let slash = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if start >= 0 {
                guard count < parts.count else { return nil }
                parts[count] = start..<slash
                count += 1
            }
            start = slash + 1
            position = slash + 1
        }
        if start >= 0 {
            guard count < parts.count else { return nil }
            parts[count] = start..<bytes.count
            count += 1
        }
        return count
    }

    /// True when the path, split into as many parts as the template has segments, has the
    /// template's shape (parameters are not decoded yet).
    private static func matches(
        _ template: UnsafeBufferPointer<Segment>, _ text: UnsafeBufferPointer<UInt8>,
        _ bytes: UnsafeBufferPointer<UInt8>, _ parts: UnsafeMutableBufferPointer<Range<Int>>
    ) -> Bool {
        for (segment, part) in zip(template, parts) {
            switch segment.kind {
            case .literal:
                guard equal(bytes, part, text, segment.text) else { return false }
            case .parameter:
                if part.isEmpty { return false }
            case .parameterWithVerb:
                let verbCount = segment.text.count
                guard part.count > verbCount, equal(bytes, part.upperBound - verbCount..<part.upperBound, text, segment.text) else {
                    return false
                }
            }
        }
        return true
    }

    /// The decoded parameters of a path that `matches` the template, or nil when one is malformed.
    private static func parameters(
        _ template: UnsafeBufferPointer<Segment>, _ names: [String],
        _ bytes: UnsafeBufferPointer<UInt8>, _ parts: UnsafeMutableBufferPointer<Range<Int>>
    ) -> PathParameters? {
        var parameters = PathParameters()
        for (segment, part) in zip(template, parts) where segment.kind != .literal {
            let value = UnsafeBufferPointer(rebasing: bytes[part.lowerBound..<part.upperBound - segment.text.count])
            guard let decoded = PercentDecoding.decode(value) else { return nil }
            parameters.append(name: names[segment.name], value: decoded)
        }
        return parameters
    }

    /// Whether the path's bytes in `range` are the template's in `literal`.
    private static func equal(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: UnsafeBufferPointer<UInt8>, _ literal: Range<Int>
    ) -> Bool {
        UnsafeBufferPointer(rebasing: bytes[range]).equals(UnsafeBufferPointer(rebasing: text[literal]))
    }
}
