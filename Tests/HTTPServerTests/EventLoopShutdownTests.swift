import XCTest
@testable import HTTPServer

/// A stopped loop lets go of the work it will never run, so that nothing keeps it (and the
/// connections and streams that work captured) alive after shutdown.
final class EventLoopShutdownTests: XCTestCase {
    func testAStoppedLoopDropsTimersThatHaveNotFired() throws {
        weak var stoppedLoop: EventLoop?
        do {
            let loop = try EventLoop()
            stoppedLoop = loop
            // Like a device stream's heartbeat: a timer that has not fired at shutdown and holds
            // something that holds the loop.
            loop.schedule(afterMilliseconds: 3_600_000) { [loop] in _ = loop }
            loop.start(name: "test")
            loop.shutdownGracefully(graceSeconds: 0)
            loop.join()
        }
        XCTAssertNil(stoppedLoop, "the stopped loop is still referenced by its unfired timer")
    }
}
