@testable import PushCore
import XCTest

/// The totals `/metrics` reads (`summary()`, the sum of each project's counts, `DeliveryStore.counts`)
/// stay equal to a walk over every project, device and delivery through every kind of change.
final class ProjectTotalsTests: XCTestCase {
    private func assertTotalsMatch(_ core: PushEmulatorCore, _ step: String, line: UInt = #line) {
        var expected = ProjectCounts()
        for slot in core.directory.slots {
            slot.withWholeProject { project in
                for shard in project.shards {
                    var deliveries = DeliveryCounts()
                    for delivery in shard.deliveries.inNumberOrder { deliveries[delivery.state] += 1 }
                    XCTAssertEqual(shard.deliveries.counts, deliveries, "\(project.projectID) after \(step)", line: line)
                    expected.add(
                        ProjectCounts(devices: shard.devices.values.count, connected: shard.streams.count, deliveries),
                        minus: ProjectCounts())
                }
            }
        }
        let summary = core.summary()
        XCTAssertEqual(summary.deliveries, expected.deliveries.byState, "after \(step)", line: line)
        XCTAssertEqual(summary.devices, expected.devices, "after \(step)", line: line)
        XCTAssertEqual(summary.connectedDevices, expected.connectedDevices, "after \(step)", line: line)
    }

    func testTheTotalsEqualARecountThroughEveryChange() throws {
        let core = makeCore()
        assertTotalsMatch(core, "nothing")
        register(core, token: "device-1")
        register(core, token: "device-2", apnsToken: "ab12")
        register(core, token: "device-3", project: "other")
        assertTotalsMatch(core, "registering")
        for _ in 0..<3 { sendFCM(core, to: .token("device-1")) }
        sendFCM(core, to: .token("device-3"), project: "other")
        assertTotalsMatch(core, "FCM sends")
        sendAPNs(core, apnsToken: "ab12", body: "one")
        sendAPNs(core, apnsToken: "ab12", body: "two")
        assertTotalsMatch(core, "an APNs push that collapses another")
        sendAPNs(core, apnsToken: "cd34", body: "new", project: "apns")
        _ = core.subscribe(project: "other", registration: "new-device", topic: "news")
        assertTotalsMatch(core, "registrations by a lenient send and a subscription")
        _ = try core.connect(project: "demo", token: "device-1").get()
        assertTotalsMatch(core, "a connection")

        let recorder = EventRecorder()
        let stream = try core.attachStream(project: "demo", token: "device-2", listener: recorder.record).get()
        assertTotalsMatch(core, "a stream")
        XCTAssertEqual(core.summary().connectedDevices, 1)
        stream.close()
        assertTotalsMatch(core, "the stream's end")

        for _ in 0..<105 { sendFCM(core, to: .token("device-1")) }
        assertTotalsMatch(core, "more FCM messages than a device keeps")
        core.advanceClock(seconds: 40 * 86_400)
        _ = try core.devices(project: "demo")
        _ = try core.devices(project: "other")
        assertTotalsMatch(core, "expiry")
        sendFCM(core, to: .token("device-3"), project: "other")
        try core.uninstallDevice(project: "other", token: "device-3").get()
        assertTotalsMatch(core, "an uninstall")
        core.clearMessages(project: "demo")
        assertTotalsMatch(core, "clearing a message log")

        let snapshot = core.exportState()
        core.resetProject("other")
        assertTotalsMatch(core, "a project reset")
        try core.importState(snapshot)
        assertTotalsMatch(core, "an import")
        XCTAssertEqual(core.summary().devices, 4)
        core.resetAll()
        assertTotalsMatch(core, "a reset of everything")
        XCTAssertEqual(core.summary(), CoreSummary())
    }
}

extension ProjectCounts {
    fileprivate init(devices: Int, connected: Int, _ deliveries: DeliveryCounts) {
        self.init()
        self.devices = devices
        connectedDevices = connected
        self.deliveries = deliveries
    }
}
