import XCTest
@testable import PushAPI

final class PushAPITests: XCTestCase {
    func testModuleLoads() {}
}
