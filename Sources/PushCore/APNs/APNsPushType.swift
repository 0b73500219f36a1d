/// The values of `apns-push-type`, with the topic suffix and priorities Apple allows for each.
public enum APNsPushType: String, Sendable, CaseIterable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls

    /// What `apns-topic` must end with after the bundle id (empty: the bare bundle id). MDM
    /// topics are a certificate's UID, with no rule here.
    public var topicSuffix: String { APNsTopic.suffix(forPushType: rawValue) }

    /// Whether Apple allows this `apns-priority` for this push type (a background push must be 5;
    /// an alert 10, 5 or 1). Other values are BadPriority.
    public func allows(priority: Int) -> Bool {
        switch self {
        case .background: priority == 5
        case .location, .liveactivity: priority == 10 || priority == 5
        case .pushtotalk: priority == 10
        case .alert, .voip, .complication, .fileprovider, .mdm, .widgets, .controls: priority == 10 || priority == 5 || priority == 1
        }
    }
}
