/// FCM's way in: a decoded and checked v1 message, converted here for each device it reaches.
extension PushEmulatorCore {
    /// Sends an FCM v1 message (`messages:send` without `validate_only`): each device it reaches
    /// gets the message converted for its platform (`FCMToDevice`); an Apple device's is measured
    /// against Apple's payload limit.
    /// A message too big for one device is refused for all: nothing is stored, registered or logged.
    /// - Parameter requestBody: the request as the sender wrote it, for the message log.
    // Inlinable, so that the route calls the send specialized for Google's errors with the
    // conversion as its closure: compiled inside PushCore instead, the message was copied on
    // every send (about 1,500 instructions more, by make perf-count).
    @inlinable
    public func send(project: String, message: FCMMessage, requestBody: [UInt8]) -> SendOutcome<GoogleError> {
        send(project: project, target: message.target, origin: .fcm, requestBody: requestBody) { context in
            FCMToDevice.content(for: message, context: context)
        }
    }

    /// What sending `message` would answer, changing nothing (`validate_only`): `checkSend` with
    /// the message's conversion.
    @inlinable
    public func checkSend(project: String, message: FCMMessage) -> Result<TargetStatus, GoogleError> {
        checkSend(project: project, target: message.target) { context in
            FCMToDevice.content(for: message, context: context)
        }
    }
}
