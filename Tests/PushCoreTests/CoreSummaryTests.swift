import PushCore
import XCTest

final class CoreSummaryTests: XCTestCase {
    func testCountsDeliveriesByStateDevicesAndConnectedDevices() {
        let core = makeCore()
        XCTAssertEqual(core.summary(), CoreSummary())
        register(core, token: "device-1")
        register(core, token: "device-2")
        register(core, token: "device-3", project: "other")
        sendFCM(core, to: .token("device-1"))
        sendFCM(core, to: .token("device-1"))
        sendFCM(core, to: .token("device-3"), project: "other")
        XCTAssertEqual(core.summary(), CoreSummary(deliveries: [.pending: 3], devices: 3))

        let recorder = EventRecorder()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: recorder.record).get()
        let summary = core.summary()
        XCTAssertEqual(summary, CoreSummary(deliveries: [.pending: 1, .delivered: 2], devices: 3, connectedDevices: 1))
        XCTAssertEqual(summary.pendingDeliveries, 1)
        stream.close()
        XCTAssertEqual(core.summary().connectedDevices, 0)
    }
}
