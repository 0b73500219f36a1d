@testable import HTTPServer
import XCTest

/// A CONNECT target read as RFC 9112's authority-form: `host:port` and nothing else.
final class ConnectAuthorityTests: XCTestCase {
    func testHostAndPort() {
        let cases: [(String, String, Int)] = [
            ("fcm.googleapis.com:443", "fcm.googleapis.com", 443),
            ("API.push.apple.com:2197", "API.push.apple.com", 2197),
            ("127.0.0.1:0", "127.0.0.1", 0),
            ("h:65535", "h", 65535),
            ("h:00443", "h", 443),
            ("[::1]:443", "[::1]", 443),
            ("[2001:db8::ffff:1.2.3.4]:8443", "[2001:db8::ffff:1.2.3.4]", 8443),
            ("my%2Dhost_1~x:80", "my%2Dhost_1~x", 80),
        ]
        for (target, host, port) in cases {
            let authority = ConnectAuthority(target)
            XCTAssertEqual(authority?.host, host, target)
            XCTAssertEqual(authority?.port, port, target)
        }
    }

    func testAnythingElseIsRefused() {
        for target in [
            "fcm.googleapis.com", "fcm.googleapis.com:", ":443", "fcm.googleapis.com:abc", "fcm.googleapis.com:+443",
            "fcm.googleapis.com:-1", "fcm.googleapis.com:65536", "fcm.googleapis.com:99999", "fcm.googleapis.com:000443",
            "fcm.googleapis.com:443 ", "fcm.googleapis.com:4 43", "fcm.googleapis.com:443:443", "user@fcm.googleapis.com:443",
            "fcm.googleapis.com/x:443", "https://fcm.googleapis.com:443", "fcm googleapis.com:443", "h%2:443", "h%zz:443",
            "[::1:443", "::1]:443", "[]:443", "[::g]:443", "fcm.googleapis.com:٤٤٣", "fcm.googleapis.com:443\u{0}", "",
        ] {
            XCTAssertNil(ConnectAuthority(target), target)
        }
    }
}
