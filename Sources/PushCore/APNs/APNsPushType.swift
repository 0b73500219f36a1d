/// The values of `apns-push-type`, with the topic suffix and priorities Apple allows for each.
public enum APNsPushType: String, Sendable, CaseIterable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls

    /// What `apns-topic` must end with after the bundle id (empty: the bare bundle id). MDM
    /// topics are a certificate's UID, with no rule here.
    public var topicSuffix: String { APNsTopic.suffix(forPushType: rawValue) }

    /// The `apns-priority` values Apple allows for this push type (a background push must be 5;
    /// an alert 10, 5 or 1). Other values are BadPriority.
    public var allowedPriorities: Set<Int> {
        switch self {
        case .background: [5]
        case .location, .liveactivity: [10, 5]
        case .pushtotalk: [10]
        case .alert, .voip, .complication, .fileprovider, .mdm, .widgets, .controls: [10, 5, 1]
        }
    }
}
