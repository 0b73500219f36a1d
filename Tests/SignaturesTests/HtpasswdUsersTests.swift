import Signatures
import XCTest

/// The htpasswd file of `--ui-auth-file`: Apache's `$apr1$` (compared with `openssl passwd -apr1`)
/// and `{SHA}` hashes, and the lines it refuses.
final class HtpasswdUsersTests: XCTestCase {
    func testApr1HashesMatchOpenSSLsPasswdCommand() throws {
        // openssl passwd -apr1 -salt SALT PASSWORD
        let users = try HtpasswdUsers(text: """
            # made by openssl passwd -apr1
            alice:$apr1$rAnd0m12$Vx55rCXsK2WIdIn5NgwYD.
            empty:$apr1$abc$BfqKdn9xFDWJPa3kcp/PH0

            long:$apr1$12345678$olNwY4AYx8mXfG4UleH80.
            """)
        XCTAssertEqual(users.count, 3)
        XCTAssertTrue(users.verify(user: "alice", password: Array("secret pass".utf8)))
        XCTAssertTrue(users.verify(user: "empty", password: []))
        XCTAssertTrue(users.verify(
            user: "long", password: Array("a much longer password of more than sixteen bytes, ünïcode".utf8)))
        XCTAssertFalse(users.verify(user: "alice", password: Array("secret pasS".utf8)))
        XCTAssertFalse(users.verify(user: "alice", password: []))
        XCTAssertFalse(users.verify(user: "bob", password: Array("secret pass".utf8)))
    }

    func testSHAHashesAndWindowsLineEnds() throws {
        // htpasswd -s: {SHA} and base64 of SHA-1("secret pass").
        let users = try HtpasswdUsers(text: "carol:{SHA}O1hAcUlX7zkBbV+/3rmbDfUlbNM=\r\n")
        XCTAssertTrue(users.verify(user: "carol", password: Array("secret pass".utf8)))
        XCTAssertFalse(users.verify(user: "carol", password: Array("secret".utf8)))
    }

    func testLinesItCannotUseAreRefusedWithTheirNumber() {
        func refusal(_ text: String) -> String {
            do {
                _ = try HtpasswdUsers(text: text)
                return "accepted"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(
            refusal("a:$apr1$rAnd0m12$Vx55rCXsK2WIdIn5NgwYD.\nb:$2y$05$abcdefghijklmnopqrstuuXz7U6cPbBf1vZ8o0wOeLwX1QIuP5bC"),
            "line 2: bcrypt hashes (htpasswd -B) cannot be read: write the line with `htpasswd -m` (or `openssl passwd -apr1`) or `htpasswd -s`")
        XCTAssertTrue(refusal("plain:secret").hasPrefix("line 1: this kind of hash cannot be read"))
        XCTAssertEqual(refusal("no colon here"), "line 1: expected user:hash")
        XCTAssertEqual(refusal(":$apr1$abc$BfqKdn9xFDWJPa3kcp/PH0"), "line 1: expected user:hash")
        XCTAssertTrue(refusal("a:$apr1$toolongsalt$BfqKdn9xFDWJPa3kcp/PH0").hasPrefix("line 1: an $apr1$ hash"))
        XCTAssertTrue(refusal("a:{SHA}c2hvcnQ=").hasPrefix("line 1: a {SHA} hash"))
        XCTAssertEqual(
            refusal("a:{SHA}O1hAcUlX7zkBbV+/3rmbDfUlbNM=\na:{SHA}O1hAcUlX7zkBbV+/3rmbDfUlbNM="), "line 2: user a is named twice")
        XCTAssertEqual(refusal("# only a comment\n\n"), "the file names no user")
    }
}
