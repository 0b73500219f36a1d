import ByteCoding

/// A delivery as an iOS Simulator push file (`.apns`): its payload as delivered, with the app's
/// bundle id under `"Simulator Target Bundle"`, which `xcrun simctl push` and a file dropped on a
/// Simulator window read to pick the app (docs/apns.md, "Simulator push files").
public enum SimulatorPushFile {
    /// The key the Simulator reads the target app's bundle id from.
    public static let targetBundleKey = "Simulator Target Bundle"

    /// The file's JSON: the target bundle first, then the payload's members in their order.
    public static func json(for delivery: Delivery) -> JSONValue {
        var members = [JSONObject.Member(key: targetBundleKey, value: .string(bundleID(of: delivery.notification)))]
        // A payload's own key of that name would make a second one: the emulator's wins.
        members += delivery.notification.payload.members.filter { $0.key != targetBundleKey }
        return .object(JSONObject(members))
    }

    /// The app's bundle id: the notification's `apns-topic` without the suffix its push type
    /// adds (`.voip`, `.push-type.liveactivity`, ...).
    static func bundleID(of notification: APNsNotification) -> String {
        let topic = notification.topic ?? ""
        let suffix = APNsTopic.suffix(forPushType: notification.pushType ?? "alert")
        guard !suffix.isEmpty, topic.hasSuffix(suffix) else { return topic }
        return String(topic.dropLast(suffix.count))
    }

    /// The file's name for `delivery`, e.g. `d-17.apns`.
    public static func fileName(of delivery: Delivery) -> String {
        "\(delivery.id).apns"
    }

    /// The admin API's path of the file of delivery `id` in `project`.
    public static func path(project: String, deliveryID: String) -> String {
        "/emulator/v1/projects/\(project)/deliveries/\(deliveryID).apns"
    }
}
