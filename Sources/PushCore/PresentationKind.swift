/// What sort of push a delivery is, as the device treats it.
public enum PresentationKind: String, Sendable, CaseIterable {
    /// Shows an alert, plays a sound or sets the badge.
    case alert
    /// `content-available: 1` with nothing to show: wakes the app in the background.
    case background
    /// Neither: only custom keys (an FCM data-only message without `content-available`).
    case data
    /// A PushKit VoIP push.
    case voip
    case complication
    case fileprovider
    case location
    case liveactivity
    case pushtotalk
    case widgets
    case controls
    case mdm
}
