@testable import HTTPServer
import XCTest

final class PathParametersTests: XCTestCase {
    func testFirstAndFurtherParameters() {
        var parameters = PathParameters()
        XCTAssertNil(parameters["project"])
        parameters.append(name: "project", value: "demo")
        parameters.append(name: "token", value: "t1")
        parameters.append(name: "topic", value: "news")
        XCTAssertEqual(parameters["project"], "demo")
        XCTAssertEqual(parameters["token"], "t1")
        XCTAssertEqual(parameters["topic"], "news")
        XCTAssertNil(parameters["other"])
    }

    func testSettingReplacesAndRemoves() {
        var parameters: PathParameters = ["project": "demo", "token": "t1"]
        parameters["project"] = "other"
        XCTAssertEqual(parameters["project"], "other")
        XCTAssertEqual(parameters["token"], "t1")
        parameters["project"] = nil
        XCTAssertNil(parameters["project"])
        XCTAssertEqual(parameters["token"], "t1")
        parameters["token"] = nil
        XCTAssertNil(parameters["token"])
    }
}
