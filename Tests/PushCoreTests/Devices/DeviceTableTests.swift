import XCTest

@testable import PushCore

/// `DeviceTable` (keyed by `TokenKey`'s digest) against the `[String: Device]` it replaced, which
/// it matches for ASCII tokens.
final class DeviceTableTests: XCTestCase {
    private func device(_ token: String, sequence: Int) -> Device {
        Device(
            platform: .ios, bundleID: "com.example.app", token: token, apnsToken: nil, appState: .background,
            registeredAt: Timestamp(millisecondsSinceEpoch: 0), sequence: sequence)
    }

    func testFindsWhatAStringKeyedDictionaryFinds() {
        var random = SeededRandomNumberGenerator(seed: 7)
        // Every length up to 40 and real-sized tokens, plus tokens differing in one byte only.
        var tokens = (0...40).map { String(repeating: "a", count: $0) }
        tokens += (0..<200).map { _ in RegistrationToken.generate(using: &random) }
        tokens += (0..<77).map { position in
            var bytes = Array("bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789".utf8)
            bytes[position] = UInt8(ascii: "Z")
            return String(decoding: bytes, as: UTF8.self)
        }
        var table = DeviceTable()
        var reference = [String: Device]()
        for (sequence, token) in tokens.enumerated() where sequence % 2 == 0 {
            table[token] = device(token, sequence: sequence)
            reference[token] = device(token, sequence: sequence)
        }
        for token in tokens + ["", "K", "\u{212A}", "zz"] {
            XCTAssertEqual(table[token], reference[token], token)
            XCTAssertEqual(table.index(forKey: token) != nil, reference.index(forKey: token) != nil, token)
        }
        XCTAssertEqual(Set(table.tokens), Set(reference.keys))
        for token in tokens.prefix(20) {
            XCTAssertEqual(table.removeValue(forKey: token), reference.removeValue(forKey: token), token)
        }
        XCTAssertEqual(Set(table.tokens), Set(reference.keys))
    }

    /// Tokens are compared byte for byte, as FCM and APNs compare them: a spelling that `String`
    /// calls equal with other bytes (the Kelvin sign for `K`, a decomposed `é`) finds nothing, so
    /// it can neither reach a stored device nor take it out and store it again under itself.
    func testASpellingWithOtherBytesFindsNothing() {
        XCTAssertEqual("\u{212A}abc", "Kabc")
        var table = DeviceTable()
        table["Kabc"] = device("Kabc", sequence: 1)
        XCTAssertNil(table["\u{212A}abc"])
        XCTAssertNil(table.index(forKey: "\u{212A}abc"))
        XCTAssertNil(table.index(forKey: KnownDevice(token: "\u{212A}abc").key))
        XCTAssertNil(table.removeValue(forKey: "\u{212A}abc"))
        XCTAssertEqual(table["Kabc"]?.token, "Kabc")

        table["\u{E9}"] = device("\u{E9}", sequence: 2)
        XCTAssertEqual(table["\u{E9}"]?.sequence, 2)
        XCTAssertNotNil(table.index(forKey: KnownDevice(token: "\u{E9}").key))
        XCTAssertNil(table["e\u{301}"])
        XCTAssertEqual(Set(table.tokens.map { Array($0.utf8) }), [Array("Kabc".utf8), Array("\u{E9}".utf8)])
    }

    func testDigestIsAFunctionOfTheBytes() {
        let token = "bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789"
        // A copy in a new buffer, and one made from a substring, digest alike.
        let copy = String(decoding: Array(token.utf8), as: UTF8.self)
        let fromSubstring = String(("x" + token).dropFirst())
        XCTAssertEqual(TokenKey.digest(of: token), TokenKey.digest(of: copy))
        XCTAssertEqual(TokenKey.digest(of: token), TokenKey.digest(of: fromSubstring))
        XCTAssertEqual(TokenKey(token), TokenKey(copy))
        XCTAssertEqual(TokenKey.digest(of: "é"), TokenKey.unhashed)
    }
}
