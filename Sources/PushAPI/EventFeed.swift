import ByteCoding
import HTTPServer
import Locking
import PushCore
import Synchronization

/// The emulator's own event stream (`GET /emulator/v1/events`, docs/events.md): what changed,
/// as Server-Sent Events, for the web inbox and for tests that watch rather than poll, and as
/// webhooks' requests (docs/webhooks.md). Each
/// route that changes the state publishes its change once the core has made it.
///
/// While nobody watches, a publish costs one atomic load (of a count written only when a
/// watcher comes or goes): sends pay nothing else. A watcher's events go out in the order they
/// were published; events of requests answered at once on different loops may reach it in either
/// order.
final class EventFeed: Sendable {
    /// How many event streams may be open at once.
    static let maximumWatchers = 64

    private struct Watcher {
        let stream: ResponseStream
        /// Only this project's events (and the clock's and the whole state's); nil: every project's.
        let project: String?
    }

    private let watchers = Locked<[ObjectIdentifier: Watcher]>([:])
    private let watcherCount = Atomic<Int>(0)
    /// The waiting reads of the message log, which each event of their project wakes.
    let logWaiters = LogWaiters()
    /// The webhooks, which get every event of their project.
    let webhooks: Webhooks

    /// Told whether anybody watches, so that the core notes delivery changes only then.
    private let audience: DeliveryChangeListener

    /// A feed whose events also go to `webhooks`, and which hears `core`'s delivery changes.
    init(core: PushEmulatorCore, webhooks: Webhooks) {
        self.webhooks = webhooks
        audience = core.deliveryChanges
        core.deliveryChanges.listen { [weak self] project, changes in
            // A collapse on every push to an offline device: with only full webhooks to tell,
            // each is counted dropped and no event is made.
            guard let self, wantsEvent(of: project, count: changes.count) else { return }
            for change in changes { publish(.delivery(project: project, change)) }
        }
    }

    /// Whether anybody watches, a read waits, or a webhook is set: routes skip building events otherwise.
    var isWatched: Bool { watcherCount.load(ordering: .relaxed) > 0 || logWaiters.isWaiting || webhooks.isActive }

    /// `isWatched` for `count` events of `project`, asked by the sends: a webhook whose queue is
    /// full counts the events dropped and does not make them wanted (`Webhooks.wants`).
    func wantsEvent(of project: String, count: Int = 1) -> Bool {
        watcherCount.load(ordering: .relaxed) > 0 || logWaiters.isWaiting || webhooks.wants(project: project, count: count)
    }

    /// Adds `stream` as a watcher of `project`'s events (nil: all); false when
    /// `maximumWatchers` are open already.
    func watch(_ stream: ResponseStream, project: String?) -> Bool {
        let added = watchers.withLock { watchers -> Bool in
            guard watchers.count < Self.maximumWatchers else { return false }
            watchers[ObjectIdentifier(stream)] = Watcher(stream: stream, project: project)
            watcherCount.store(watchers.count, ordering: .relaxed)
            return true
        }
        guard added else { return false }
        audience.addAudience(1)
        stream.onClose { [weak self] in
            guard let self else { return }
            audience.addAudience(-1)
            watchers.withLock { watchers in
                watchers[ObjectIdentifier(stream)] = nil
                watcherCount.store(watchers.count, ordering: .relaxed)
            }
        }
        return true
    }

    /// Whether another watcher may start (a streaming response's writer runs after the status
    /// is sent, so the limit is checked first).
    var hasRoom: Bool { watchers.withLock { $0.count < Self.maximumWatchers } }

    /// Sends `event` to every watcher of its project; `event` is built only when somebody watches.
    func publish(_ event: @autoclosure () -> FeedEvent) {
        guard isWatched else { return }
        let event = event()
        if logWaiters.isWaiting { logWaiters.wake(project: event.project) }
        if webhooks.isActive { webhooks.offer(event) }
        guard watcherCount.load(ordering: .relaxed) > 0 else { return }
        let bytes = event.serverSentEvent
        let streams = watchers.withLock { watchers in
            watchers.values.filter { $0.project == nil || event.project == nil || $0.project == event.project }.map(\.stream)
        }
        for stream in streams { stream.write(bytes) }
    }
}

/// One event of the feed: its type (the SSE `event:` line) and its JSON (the `data:` line).
///
/// The JSON is made when it is read, from what the event captured: a webhook's events are queued
/// on a send's path and written on the webhook's own thread (docs/webhooks.md).
struct FeedEvent: Sendable {
    let type: String
    /// The project it concerns; nil for the clock and the whole state.
    let project: String?
    private let payload: Payload

    /// What the fields are made from: a send's parts kept as they are (a send's event is made on
    /// every send while a webhook is set, and a closure's context cost an allocation), or a
    /// closure for the rarer events.
    private enum Payload: Sendable {
        case message(SentMessage, origin: DeliveryOrigin, target: MessageTarget)
        case fields(@Sendable () -> [(String, JSONValue)])
    }

    init(_ type: String, project: String?, _ fields: @escaping @Sendable @autoclosure () -> [(String, JSONValue)]) {
        self.type = type
        self.project = project
        payload = .fields(fields)
    }

    private init(_ type: String, project: String?, payload: Payload) {
        self.type = type
        self.project = project
        self.payload = payload
    }

    /// `project` (when there is one), then the type's own fields.
    var fields: [JSONObject.Member] {
        var members = project.map { [JSONObject.Member(key: "project", value: .string($0))] } ?? []
        let own: [(String, JSONValue)] = switch payload {
        case .message(let sent, let origin, let target): [
            ("name", .string(sent.messageName.text)), ("origin", .string(origin.rawValue)), ("target", target.json),
            ("deliveries", .array(sent.deliveryNumbers.map { .string("d-\($0)") })),
        ]
        case .fields(let make): make()
        }
        members += own.map { JSONObject.Member(key: $0.0, value: $0.1) }
        return members
    }

    var serverSentEvent: [UInt8] {
        var bytes = Array("event: \(type)\ndata: ".utf8)
        JSONSerializer.write(.object(JSONObject(fields)), into: &bytes)
        bytes += "\n\n".utf8
        return bytes
    }

    /// The event as a webhook's request body: `type`, the target's `sequence`, then `fields`.
    func webhookBody(sequence: Int) -> [UInt8] {
        let head = [
            JSONObject.Member(key: "type", value: .string(type)),
            JSONObject.Member(key: "sequence", value: .number(String(sequence))),
        ]
        return JSONSerializer.serialize(.object(JSONObject(head + fields)))
    }

    /// A send accepted (FCM or APNs): its message and its deliveries, all `pending` now.
    static func message(project: String, _ sent: SentMessage, origin: DeliveryOrigin, target: MessageTarget) -> FeedEvent {
        FeedEvent("message", project: project, payload: .message(sent, origin: origin, target: target))
    }

    /// A delivery whose state changed: `delivered` once a device got it; `collapsed`, `expired`,
    /// `deleted` or `dropped`, with the reason its history gives, when the core made the change.
    static func delivery(project: String, id: String, token: String, state: DeliveryState, reason: String? = nil) -> FeedEvent {
        FeedEvent("delivery", project: project, [
            ("id", .string(id)), ("token", .string(token)), ("state", .string(state.rawValue)),
        ] + (reason.map { [("reason", JSONValue.string($0))] } ?? []))
    }

    /// A change the core told (`DeliveryChangeListener`).
    static func delivery(project: String, _ change: DeliveryChange) -> FeedEvent {
        .delivery(project: project, id: "d-\(change.number)", token: change.token, state: change.state, reason: change.reason)
    }

    /// A device's change: `registered`, `updated`, `uninstalled`, `connected` (a `:connect`),
    /// `streamOpened` or `streamClosed`.
    static func device(project: String, token: String, change: String) -> FeedEvent {
        FeedEvent("device", project: project, [("token", .string(token)), ("change", .string(change))])
    }

    /// What a device's events handed it at a connect: each notification delivered, and the
    /// signal that deleted messages, as the device got them.
    static func received(project: String, token: String, _ events: [DeviceEvent]) -> [FeedEvent] {
        events.map { Received($0).event(project: project, token: token) }
    }

    /// What the feed says of one event a device received, kept without the event itself (its
    /// payload): a stream notes it for each event it writes, and tells the feed once the bytes
    /// are sent, building the feed's event only if somebody watches then.
    enum Received: Sendable {
        case delivery(id: String)
        case messagesDeleted(reason: DeletionReason, count: Int)

        init(_ event: DeviceEvent) {
            switch event {
            case .notification(let notification): self = .delivery(id: notification.id)
            case .messagesDeleted(let reason, let count): self = .messagesDeleted(reason: reason, count: count)
            }
        }

        func event(project: String, token: String) -> FeedEvent {
            switch self {
            case .delivery(let id):
                return .delivery(project: project, id: id, token: token, state: .delivered)
            case .messagesDeleted(let reason, let count):
                return FeedEvent("messagesDeleted", project: project, [
                    ("token", .string(token)), ("reason", .string(reason.rawValue)), ("count", .number(String(count))),
                ])
            }
        }
    }

    /// The clock moved or was reset.
    static func clock(_ clock: EmulatorClock) -> FeedEvent {
        // Read now: the clock's `now` runs on, and a webhook writes its event later.
        let now = clock.now.rfc3339
        let offset = String(clock.offsetSeconds)
        return FeedEvent("clock", project: nil, [("now", .string(now)), ("offsetSeconds", .number(offset))])
    }

    /// A project was reset (`change: "reset"`), or a fault added or deleted (`faultAdded`,
    /// `faultDeleted`, with its `id`; `faultsDeleted` for all).
    static func project(_ project: String, change: String, faultID: Int? = nil) -> FeedEvent {
        // A string, as the fault API writes ids.
        FeedEvent("project", project: project, [("change", .string(change))] + (faultID.map { [("faultId", .string(String($0)))] } ?? []))
    }

    /// A fault fired on a send of `api` (`fcm` or `apns`): the emulator answers with its error,
    /// delay or connection fault (docs/faults.md).
    static func fault(project: String, _ fired: FiredFault, api: String) -> FeedEvent {
        FeedEvent("fault", project: project, [
            ("faultId", .string(String(fired.faultID))), ("api", .string(api)),
            ("error", fired.error.map { .string($0.name) } ?? .null),
            ("connection", fired.connection.map { .string($0.rawValue) } ?? .null),
            ("delayMs", fired.delayMilliseconds.map { .number(String($0)) } ?? .null),
        ])
    }

    /// The whole state was reset (`reset`) or replaced by an import (`imported`).
    static func state(change: String) -> FeedEvent {
        FeedEvent("state", project: nil, [("change", .string(change))])
    }
}
