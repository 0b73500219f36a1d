import ByteCoding
import HTTPServer
import Locking
import Synchronization

/// One webhook (docs/webhooks.md): a URL that gets each event of its project (or of every project)
/// as a JSON `POST`, from a queue of its own, in order, by a thread of its own. A send only
/// appends to the queue; a full queue drops the event (counted), and an event the URL refuses
/// `maximumAttempts` times is dropped too (counted), so that a target that hangs or fails
/// delays nothing but its own events.
final class WebhookTarget: Sendable {
    /// Events a target holds, queued and in flight, before new ones are dropped.
    static let queueCapacity = 10_000
    /// Tries per event: the first, then after 0.5, 1, 2 and 4 s.
    static let maximumAttempts = 5
    static let firstBackoffMilliseconds = 500
    /// Seconds each try has to connect, and then for each write and read.
    static let timeoutSeconds = 5

    /// `w-1`, `w-2`, ... in the order targets were added.
    let id: String
    let url: HTTPClientURL
    /// The project whose events it gets; nil: every project's (`--webhook`).
    let project: String?
    private let client: HTTPClient
    private let state = Locked(State())
    private let thread: BackgroundThread
    /// Whether the queue is full: while every target that would get a send's event is, the send
    /// does not make the event at all (`Webhooks.wants`), and counts it here, without the lock.
    let fullness = Fullness()
    private let skipped = Atomic<Int>(0)

    /// Whether a queue is full, shared by the target and its thread.
    final class Fullness: Sendable {
        let isFull = Atomic<Bool>(false)
    }

    private struct State {
        /// Each event with its sequence number, taken when it was offered: a dropped event leaves a gap.
        var queued: [(sequence: Int, event: FeedEvent)] = []
        /// Taken by the thread and not yet sent or given up.
        var inFlight = 0
        var nextSequence = 1
        /// The thread found the queue empty and sleeps until woken.
        var idle = false
        var counts = WebhookCounts()
        var lastError: String?
        /// Once removed: where its counts went, and where what it still settles goes.
        var retiredInto: RetiredWebhookCounts?
    }

    init(id: String, url: HTTPClientURL, project: String?, client: HTTPClient) {
        self.id = id
        self.url = url
        self.project = project
        self.client = client
        let state = state
        let fullness = fullness
        thread = BackgroundThread.start { thread in
            Self.run(thread: thread, state: state, fullness: fullness, url: url, client: client)
        }
    }

    /// Whether it gets `event`: its project's events, and those of no project (the clock, the whole state).
    func wants(_ event: FeedEvent) -> Bool {
        project == nil || event.project == nil || event.project == project
    }

    /// Queues `event`, or counts it dropped when the queue is full. Never blocks on the network.
    func offer(_ event: FeedEvent) {
        let wake = state.withLock { state -> Bool in
            // Those skipped take their numbers too, so that a gap shows every drop.
            let sequence = state.nextSequence + skipped.load(ordering: .relaxed)
            state.nextSequence += 1
            guard state.queued.count + state.inFlight < Self.queueCapacity else {
                state.counts.queueFull += 1
                return false
            }
            state.queued.append((sequence, event))
            if state.queued.count + state.inFlight == Self.queueCapacity { fullness.isFull.store(true, ordering: .relaxed) }
            guard state.idle else { return false }
            state.idle = false
            return true
        }
        if wake { thread.wake() }
    }

    /// Stops the targets' threads; what is queued is not sent. Waits up to `milliseconds` for
    /// them to end (0 on a request's path); a request under way then ends on its own.
    static func stop(_ targets: [WebhookTarget], waitingAtMostMilliseconds milliseconds: Int) {
        BackgroundThread.stop(targets.map(\.thread), waitingAtMostMilliseconds: milliseconds)
    }

    /// Adds its counts to `retired`, and from now on what it settles too (the request under way
    /// when it was removed): called once, as it leaves the list of webhooks.
    func retire(into retired: RetiredWebhookCounts) {
        state.withLock { state in
            state.retiredInto = retired
            var counts = state.counts
            counts.queueFull += skipped.load(ordering: .relaxed)
            retired.add(counts)
        }
    }

    /// Counts `count` events dropped, unmade, because the queue was full.
    func skip(_ count: Int) {
        skipped.add(count, ordering: .relaxed)
    }

    /// Its counts since it was added.
    var counts: WebhookCounts {
        var counts = state.withLock { $0.counts }
        counts.queueFull += skipped.load(ordering: .relaxed)
        return counts
    }

    /// Events queued or in flight now.
    var queuedCount: Int { state.withLock { $0.queued.count + $0.inFlight } }

    /// As the API shows it.
    var json: JSONValue {
        let (pending, lastError) = state.withLock { ($0.queued.count + $0.inFlight, $0.lastError) }
        let counts = counts
        return .object(JSONObject([
            JSONObject.Member(key: "id", value: .string(id)),
            JSONObject.Member(key: "url", value: .string(url.description)),
            JSONObject.Member(key: "project", value: project.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "queued", value: .number(String(pending))),
            JSONObject.Member(key: "delivered", value: .number(String(counts.delivered))),
            JSONObject.Member(key: "failed", value: .number(String(counts.failed))),
            JSONObject.Member(key: "droppedQueueFull", value: .number(String(counts.queueFull))),
            JSONObject.Member(key: "lastError", value: lastError.map(JSONValue.string) ?? .null),
        ]))
    }

    /// The thread: takes what is queued, sends it in order, sleeps when there is nothing.
    private static func run(thread: BackgroundThread, state: Locked<State>, fullness: Fullness, url: HTTPClientURL, client: HTTPClient) {
        while !thread.isStopped {
            let batch = state.withLock { state in
                let batch = state.queued
                state.queued = []
                state.inFlight = batch.count
                state.idle = batch.isEmpty
                return batch
            }
            if batch.isEmpty {
                thread.sleep(milliseconds: 60_000)
                continue
            }
            for (sequence, event) in batch {
                guard !thread.isStopped else { return }
                let error = deliver(event.webhookBody(sequence: sequence), type: event.type, thread: thread, url: url, client: client)
                state.withLock { state in
                    // Room again once the first event of a full queue is settled.
                    if state.queued.count + state.inFlight == Self.queueCapacity { fullness.isFull.store(false, ordering: .relaxed) }
                    state.inFlight -= 1
                    let settled = error == nil ? WebhookCounts(delivered: 1) : WebhookCounts(failed: 1)
                    state.counts = state.counts + settled
                    if let error { state.lastError = error }
                    state.retiredInto?.add(settled)
                }
            }
        }
    }

    /// Posts `body` until a 2xx answer, at most `maximumAttempts` times; nil once delivered, else
    /// the last failure.
    private static func deliver(_ body: [UInt8], type: String, thread: BackgroundThread, url: HTTPClientURL, client: HTTPClient) -> String? {
        var backoff = firstBackoffMilliseconds
        var failure = ""
        for attempt in 1...maximumAttempts {
            do throws(HTTPClientError) {
                let response = try client.send(
                    "POST", url,
                    headers: [("Content-Type", "application/json"), ("User-Agent", "push-emulator"), ("X-Push-Emulator-Event", type)],
                    body: body, timeoutSeconds: timeoutSeconds)
                if (200..<300).contains(response.status) { return nil }
                failure = "\(url) answered \(response.status)"
            } catch {
                failure = "\(url): \(error)"
            }
            guard attempt < maximumAttempts else { break }
            thread.pause(milliseconds: backoff)
            guard !thread.isStopped else { break }
            backoff *= 2
        }
        return "\(failure) (\(maximumAttempts) tries)"
    }
}

/// What removed webhooks did, for `/metrics`: a webhook adds its counts as it is removed, and
/// then what its thread still settles.
final class RetiredWebhookCounts: Sendable {
    private let counts = Locked(WebhookCounts())

    func add(_ more: WebhookCounts) {
        counts.withLock { $0 = $0 + more }
    }

    var total: WebhookCounts { counts.withLock { $0 } }
}

/// What a webhook did with its events.
struct WebhookCounts: Sendable {
    /// Answered with a 2xx.
    var delivered = 0
    /// Given up after `WebhookTarget.maximumAttempts` tries.
    var failed = 0
    /// Dropped because the queue was full.
    var queueFull = 0

    static func + (lhs: Self, rhs: Self) -> Self {
        Self(delivered: lhs.delivered + rhs.delivered, failed: lhs.failed + rhs.failed, queueFull: lhs.queueFull + rhs.queueFull)
    }
}
