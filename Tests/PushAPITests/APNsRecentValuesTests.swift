import PushCore
import XCTest

@testable import PushAPI

/// The strings a connection's recent header values give are always those of the bytes given,
/// whether the bytes repeat, change, or go back to an earlier value, for every header.
final class APNsRecentValuesTests: XCTestCase {
    func testEveryValueIsTheStringOfItsBytes() {
        var recent = APNsRecentValues()
        let headers: [APNsHeaderName?] = [.authorization, .topic, .pushType, .id, .priority, nil]
        let values = ["bearer a.b.c", "com.example.app", "com.example.app.voip", "alert", "", "bearer a.b.d", "x"]
        for round in 0..<3 {
            for header in headers {
                for value in values + values.reversed() {
                    let made = Array(value.utf8).withUnsafeBufferPointer { recent.value(of: header, $0) }
                    XCTAssertEqual(made, value, "\(String(describing: header)) round \(round)")
                }
            }
        }
    }
}
