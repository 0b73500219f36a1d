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
    /// A watch complication update.
    case complication
    /// A File Provider extension signal.
    case fileprovider
    /// A location query for a Location Push Service extension.
    case location
    /// A Live Activity update.
    case liveactivity
    /// A Push to Talk channel update.
    case pushtotalk
    /// A widget reload.
    case widgets
    /// A Control Center control reload.
    case controls
    /// A device-management check-in request.
    case mdm
}
