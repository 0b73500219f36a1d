import ByteCoding

/// A device registered by `TestEmulator.registerDevice`.
public struct TestDevice: Sendable, Equatable {
    /// Its FCM registration token: what a backend sends to.
    public let token: String
    /// An Apple device's APNs device token (64 hex digits), for pushes through the APNs provider
    /// API; nil for an Android or web device.
    public let apnsToken: String?
    /// The project it was registered in.
    public let project: String

    /// The app a device runs, as registered.
    public enum App: Sendable {
        /// An iOS app with this bundle id, on a device with this APNs token (nil: a random one).
        case ios(bundleID: String, apnsToken: String? = nil)
        /// An Android app with this package name.
        case android(packageName: String)
        /// A web app at this origin (`https://shop.example`).
        case web(origin: String)

        var registration: [UInt8] {
            let fields: JSONObject = switch self {
            case .ios(let bundleID, let apnsToken):
                ["platform": "ios", "bundleId": .string(bundleID), "apnsToken": .string(apnsToken ?? Self.randomAPNsToken())]
            case .android(let packageName): ["platform": "android", "packageName": .string(packageName)]
            case .web(let origin): ["platform": "web", "origin": .string(origin)]
            }
            return JSONSerializer.serialize(.object(fields))
        }

        private static func randomAPNsToken() -> String {
            (0..<32).map { _ in
                let byte = UInt8.random(in: 0...255)
                return (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined()
        }
    }
}
