import ByteCoding

/// The body of `POST /v1/projects/{project}/messages:send`:
/// `{"message": {...}, "validate_only": bool}` (or `validateOnly`).
public struct FCMSendRequest: Sendable, Equatable {
    /// The message to send.
    public var message: FCMMessage
    /// Validate only: answer as for a send, deliver nothing.
    public var validateOnly: Bool

    /// Makes a request.
    public init(message: FCMMessage, validateOnly: Bool = false) {
        self.message = message
        self.validateOnly = validateOnly
    }

    /// Parses and validates a request body, throwing the error Google would answer: the one
    /// entry point of a send's body, for the route and the validation tests alike.
    ///
    /// An empty body reads as `{}`, as Google's front end treats it (and so fails with
    /// "Recipient of the message is not set."). Any other body is JSON text: one of whitespace
    /// alone is "Unexpected end of string. Expected a value.", as Google's JSON parser words it.
    @inlinable
    public init(body: borrowing [UInt8]) throws(GoogleError) {
        // Inlined into the route and decoded into `self`: a request returned through the
        // decoder's calls, and wrapped in an optional, is copied at each step. `body` is
        // borrowed, as an initializer would otherwise take its own reference to the array.
        self.init(message: FCMMessage(target: .token("")))
        if !Self.decodeWellFormed(body, into: &self) {
            self = try FCMSendRequest(parsing: body)
        }
    }

    /// `init(body:)` for a body the one-pass decoder left to the general path.
    @usableFromInline
    init(parsing body: borrowing [UInt8]) throws(GoogleError) {
        let json: JSONValue
        if body.isEmpty {
            json = .object(JSONObject())
        } else {
            do {
                json = try JSONParser.parse(body)
            } catch {
                throw GoogleError.invalidJSONPayload(error)
            }
        }
        try self.init(json: json)
    }

    /// The request a well-formed body holds, decoded in one pass without building JSON trees;
    /// nil when the body is in any way unusual, valid or not, and the general path
    /// (`init(body:)`, `init(json:)`) must decide. When not nil, it equals what `init(body:)` gives.
    public static func decodeWellFormed(_ body: [UInt8]) -> FCMSendRequest? {
        var request = FCMSendRequest(message: FCMMessage(target: .token("")))
        return decodeWellFormed(body, into: &request) ? request : nil
    }

    /// `decodeWellFormed(_:)` into `request`, a request with nothing set but a placeholder
    /// target: true when decoded; false, with `request` in any state, when the general path
    /// must decide.
    @usableFromInline
    static func decodeWellFormed(_ body: borrowing [UInt8], into request: inout FCMSendRequest) -> Bool {
        FCMSendRequestFastDecoder.decode(body, into: &request)
    }

    /// Validates an already parsed body, throwing the error Google would answer.
    public init(json: JSONValue) throws(GoogleError) {
        var mapper = FCMProtoJSONMapper()
        let canonical = mapper.mapRoot(json, as: FCMSchema.sendMessageRequest)
        if !mapper.violations.isEmpty {
            throw GoogleError.invalidArgument(
                mapper.violations.map(\.description).joined(separator: "\n"), fieldViolations: mapper.violations)
        }
        let message = try FCMMessage(canonical: canonical["message"]?.objectValue ?? JSONObject())
        try message.validate()
        self.init(message: message, validateOnly: canonical["validate_only"]?.boolValue ?? false)
    }
}
