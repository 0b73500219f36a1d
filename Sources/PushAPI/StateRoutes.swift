import ByteCoding
import HTTPServer
import PushCore

/// `GET`/`PUT /emulator/v1/state`: the whole state as a snapshot, and its replacement by one
/// (docs/state.md). `DELETE /emulator/v1/state` (reset everything) is with the other resets.
struct StateRoutes {
    let core: PushEmulatorCore
    let streams: DeviceStreams
    let events: EventFeed

    func register(in router: inout Router) {
        router.add("GET", "/emulator/v1/state") { _ in
            let snapshot = core.exportStateBytes()
            // The tree the snapshot was serialized from, the size of the state several times
            // over, is freed by now: handed back once exports stop, as a reset's memory is.
            FreeMemory.releaseSoon()
            return .json(200, snapshot)
        }
        router.add("PUT", "/emulator/v1/state") { request in
            do throws(SnapshotError) {
                try core.importState(request.body)
            } catch {
                return ControlPlane.error(.invalidArgument("Invalid state snapshot: \(error)"))
            }
            // The devices came back offline: their streams (already ended by the core) close.
            streams.finish()
            events.publish(.state(change: "imported"))
            events.webhooks.removeAdded(project: nil)
            FreeMemory.releaseSoon()
            return ControlPlane.ok(.object(JSONObject()))
        }
    }
}
