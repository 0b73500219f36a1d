import ByteCoding
import PushCore
import XCTest

/// 2026-11-22T10:00:00Z, the wall time of every test core.
let fixedWallTime: Int64 = 1_795_341_600_000
let fixedNowSeconds: Int64 = 1_795_341_600
let thirtyDays: Int64 = 30 * 86_400

func object(_ members: (String, JSONValue)...) -> JSONObject {
    JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) })
}

func obj(_ members: (String, JSONValue)...) -> JSONValue {
    .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
}

func str(_ text: String) -> JSONValue { .string(text) }

func num(_ value: Int) -> JSONValue { .number(String(value)) }

func makeCore(_ configuration: PushCoreConfiguration = PushCoreConfiguration()) -> PushEmulatorCore {
    PushEmulatorCore(
        configuration: configuration, wallTime: { fixedWallTime }, random: SeededRandomNumberGenerator(seed: 42))
}

/// Registers an iOS device with a known token.
@discardableResult
func register(
    _ core: PushEmulatorCore, token: String = "device-1", apnsToken: String? = nil, appState: AppState = .background,
    project: String = "demo"
) -> Device {
    try! core.registerDevice(
        project: project, DeviceRegistration(apnsToken: apnsToken, token: token, appState: appState)
    ).get()
}

/// Sends an FCM message through the real conversion.
@discardableResult
func sendFCM(
    _ core: PushEmulatorCore, to target: MessageTarget = .token("device-1"), project: String = "demo",
    notification: FCMNotification? = nil, data: [(key: String, value: String)] = [("k", "v")],
    headers: [HeaderField] = []
) -> SendOutcome<Never> {
    core.send(project: project, target: target, origin: .fcm, request: obj(("message", obj()))) { context in
        .success(
            AppleConversion.convert(
                AppleConversionInput(
                    context: context, notification: notification, data: data.map { FCMStringPair($0.key, $0.value) },
                    apnsHeaders: headers.map { FCMStringPair($0.name, $0.value) })))
    }
}

/// The target's status as `validate_only` sees it, with a conversion that always succeeds.
func checkTarget(_ core: PushEmulatorCore, _ target: MessageTarget, project: String = "demo") -> TargetStatus {
    let checked = core.checkSend(project: project, target: target) { _ in
        Result<DeliveryContent?, Never>.success(APNsNotification(headers: [], payload: JSONObject()))
    }
    switch checked {
    case .success(let status): return status
    }
}

/// Sends through the APNs provider API path: headers and payload as given.
@discardableResult
func sendAPNs(
    _ core: PushEmulatorCore, apnsToken: String, topic: String = "com.example.app", collapseID: String? = nil,
    body: String, project: String = "demo"
) -> SendOutcome<Never> {
    var headers = [HeaderField("apns-push-type", "alert"), HeaderField("apns-topic", topic)]
    if let collapseID { headers.append(HeaderField("apns-collapse-id", collapseID)) }
    let payload = object(("aps", obj(("alert", str(body)))))
    return core.send(project: project, target: .apnsToken(apnsToken), origin: .apns, request: .object(payload)) {
        context in
        .success(APNsNotification(headers: headers + [HeaderField("apns-id", context.apnsID)], payload: payload))
    }
}

extension SentMessage {
    /// The send's deliveries as the message log shows them.
    func deliveries(in core: PushEmulatorCore, project: String = "demo") -> [Delivery] {
        let logged = try! core.messages(project: project).items.first { $0.name == name }
        XCTAssertEqual(logged?.deliveries.map(\.number), Array(deliveryNumbers))
        return logged?.deliveries ?? []
    }
}

extension SendOutcome {
    var sent: SentMessage? {
        if case .accepted(let message) = self { return message }
        return nil
    }
}

extension DeviceEvent {
    var notification: NotificationEvent? {
        if case .notification(let event) = self { return event }
        return nil
    }
}
