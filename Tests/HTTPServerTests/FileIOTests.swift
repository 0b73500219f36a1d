import Glibc
import HTTPServer
import XCTest

final class FileIOTests: XCTestCase {
    private func scratchDirectory() -> String {
        var template = Array("/tmp/push-emulator-fileio-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    func testWriteReplacesTheWholeFileAndLeavesNoTemporary() throws {
        let path = scratchDirectory() + "/state.json"
        try FileIO.write(path, Array("first".utf8))
        try FileIO.write(path, Array("second, longer".utf8))
        XCTAssertEqual(try FileIO.read(path), Array("second, longer".utf8))
        XCTAssertFalse(FileIO.exists(path + ".tmp"))
    }

    func testAFailedWriteLeavesTheEarlierFileWhole() throws {
        let path = scratchDirectory() + "/state.json"
        try FileIO.write(path, Array("good export".utf8))
        // The temporary name is taken by a directory: the write cannot start.
        try FileIO.makeDirectories(path + ".tmp")
        XCTAssertThrowsError(try FileIO.write(path, Array("half".utf8)))
        XCTAssertEqual(try FileIO.read(path), Array("good export".utf8))
        XCTAssertTrue(FileIO.isDirectory(path + ".tmp"))
        XCTAssertFalse(FileIO.isDirectory(path))
    }
}
