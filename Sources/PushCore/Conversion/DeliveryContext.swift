/// What the emulator knows when it builds one device's notification for a send.
public struct DeliveryContext: Sendable {
    /// The message id (goes into `gcm.message_id`).
    public var messageID: String { messageName.messageID }
    /// `projects/{project}/messages/{id}`.
    public var messageName: MessageName
    /// The app id of the device the notification is for: an Apple device's bundle id (the
    /// default `apns-topic`), an Android device's package name, a web device's origin. Only
    /// this of the device: a copy of the whole device would retain and release each of its parts.
    public var bundleID: String
    /// The project's sender id (goes into `google.c.sender.id`).
    public var senderID: String
    /// A fresh UUID for `apns-id` when the sender gave none, kept as its bits: the notification
    /// stores it so, and writes it out only when its headers are read.
    public var generatedAPNsID: RandomUUID
    /// `generatedAPNsID` as text.
    public var apnsID: String { generatedAPNsID.text }
    /// The emulator's time of the send.
    public var now: Timestamp
    /// The device's platform and the settings its presentation notes read.
    public var app: AppKind = .ios

    /// The kind of app a delivery is for, with an Android or web app's settings.
    public enum AppKind: Sendable, Equatable {
        case ios
        /// An Android app, with the notification channels it created (nil: every channel a
        /// message names).
        case android(channels: [String]?)
        /// A web app, whose service worker sets an `onBackgroundMessage` handler or not.
        case web(hasBackgroundHandler: Bool)
    }

    /// The device's platform.
    public var platform: Platform {
        switch app {
        case .ios: .ios
        case .android: .android
        case .web: .web
        }
    }
}
