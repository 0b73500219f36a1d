/// Apple's two push environments: a development build's device token works only through the
/// sandbox host, a production build's only through `api.push.apple.com`; the other host answers
/// 400 BadDeviceToken (docs/apns.md, "Environment").
public enum APNsEnvironment: String, Sendable, CaseIterable {
    case development
    case production
}
