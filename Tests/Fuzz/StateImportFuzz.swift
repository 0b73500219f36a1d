// libFuzzer target for state import (docs/state.md): any bytes must either be refused with a
// SnapshotError that leaves the state as it was, or be imported into a state whose export imports
// again to the same export, and on which reads, connects and sends work without trapping.
// Built by scripts/fuzz.sh state-import with swiftc directly, beside the PushCore sources.
import ByteCoding

private func makeCore() -> PushEmulatorCore {
    PushEmulatorCore(wallTime: { 1_795_341_600_000 }, random: SeededRandomNumberGenerator(seed: 1))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let core = makeCore()
    let empty = core.exportStateBytes()
    do {
        try core.importState(bytes)
    } catch {
        precondition(!error.problem.isEmpty, "an empty reason at \(error.path)")
        precondition(core.exportStateBytes() == empty, "a refused import changed the state: \(error)")
        return 0
    }
    let exported = core.exportStateBytes()
    let again = makeCore()
    do {
        try again.importState(exported)
    } catch {
        fatalError("an export does not import: \(error)")
    }
    precondition(again.exportStateBytes() == exported, "export, import, export changed the snapshot")
    // What users do next: read, connect every device, send to it and to its topics.
    let projects = again.directory.slots.map(\.id)
    for project in projects {
        let devices = (try? again.devices(project: project).items) ?? []
        _ = try? again.messages(project: project)
        _ = try? again.topics(project: project)
        for device in devices {
            _ = try? again.messages(project: project, filter: MessageLogFilter(token: device.token))
            _ = again.connect(project: project, token: device.token)
            for target in [MessageTarget.token(device.token)] + device.topics.map(MessageTarget.topic) {
                _ = again.send(project: project, target: target, origin: .fcm, requestBody: Array("{}".utf8)) { _ in
                    Result<DeliveryContent?, Never>.success(APNsNotification(headers: [], payload: JSONObject()))
                }
                _ = try? again.messages(project: project, filter: MessageLogFilter(topic: device.topics.first))
            }
            _ = again.fireFault(project: project, on: .fcm(.token(device.token)))
            _ = again.uninstallDevice(project: project, token: device.token)
        }
    }
    again.advanceClock(seconds: 40 * 86_400)
    _ = again.exportStateBytes()
    return 0
}
