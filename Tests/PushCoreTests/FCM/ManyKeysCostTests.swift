import XCTest

import ByteCoding
@testable import PushCore

#if canImport(Glibc)
import Glibc
#endif

/// A body within the size limit costs time linear in its size, however many map keys it holds:
/// the cost at 4n keys stays within 5x of the cost at n (the conversion's check of each data
/// key against the custom keys and the earlier entries, by scan, made it 16x).
final class ManyKeysCostTests: XCTestCase {
    /// Keys of the smaller body; the larger one has four times as many.
    static let keys = 500

    /// A send body whose `message.data` and `apns.payload` each hold `count` distinct keys, with
    /// `tail` written just before the data map closes.
    private func body(keys count: Int, dataTail tail: String = "") -> [UInt8] {
        var data = (0..<count).map { #""d\#($0)":"v""# }.joined(separator: ",")
        data += tail
        let custom = (0..<count).map { #""c\#($0)":1"# }.joined(separator: ",")
        return Array(#"{"message":{"token":"device-1","data":{\#(data)},"apns":{"payload":{\#(custom)}}}}"#.utf8)
    }

    /// Checks that `work` on 4n keys costs less than 5 times what it costs on n keys. Runs at
    /// both sizes alternate, and each size counts its quickest run in this thread's CPU time, so
    /// that other processes on a busy machine count for neither.
    private func assertLinear(_ label: String, _ work: (Int) -> () -> Void, file: StaticString = #filePath, line: UInt = #line) {
        let small = work(Self.keys)
        let large = work(4 * Self.keys)
        var quickest = (small: Double.infinity, large: Double.infinity)
        for _ in 0..<Self.rounds {
            quickest.small = min(quickest.small, Self.cpuSeconds(small))
            quickest.large = min(quickest.large, Self.cpuSeconds(large))
        }
        XCTAssertLessThan(
            quickest.large, 5 * quickest.small,
            "\(label): \(quickest.small)s at \(Self.keys) keys, \(quickest.large)s at \(4 * Self.keys)", file: file, line: line)
    }

    /// Runs of each size.
    static let rounds = 7

    /// The CPU time this thread spends in `work`.
    private static func cpuSeconds(_ work: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        work()
        return now() - start
    }

    func testConvertingManyDataAndPayloadKeysIsLinear() {
        assertLinear("decode and convert") { count in
            let body = body(keys: count)
            return {
                let message = try! FCMSendRequest(body: body).message
                let converted = AppleConversion.convert(
                    AppleConversionInput(
                        data: message.data.map { ($0.key, $0.value) }, apnsPayload: message.apns?.payload,
                        messageID: "1", senderID: "1", bundleID: "com.example.app", apnsID: "id",
                        now: Timestamp(secondsSinceEpoch: fixedNowSeconds)))
                XCTAssertGreaterThan(converted.payloadByteCount, 2 * count * 6)
            }
        }
    }

    func testRefusingADuplicateDataKeyAfterManyIsLinear() {
        assertLinear("duplicate key") { count in
            let body = body(keys: count, dataTail: #","d0":"again""#)
            return {
                do throws(GoogleError) {
                    _ = try FCMSendRequest(body: body)
                    XCTFail("a key given twice must be refused")
                } catch {
                    XCTAssertTrue(error.message.contains("d0"), error.message)
                }
            }
        }
    }

    func testManyKeysStillKeepOnlyTheFirstOfEachKey() {
        // Past the scan's few keys, the set must decide as the scan did: a data entry whose key
        // a custom key or an earlier entry has is left out.
        let custom = JSONObject((0..<40).map { JSONObject.Member(key: "c\($0)", value: .number("1")) })
        let converted = AppleConversion.convert(
            AppleConversionInput(
                data: [("d", "first"), ("c7", "taken"), ("d", "again"), ("aps", "x"), ("e", "kept")], apnsPayload: custom,
                messageID: "1", senderID: "1", bundleID: "com.example.app", apnsID: "id",
                now: Timestamp(secondsSinceEpoch: fixedNowSeconds)))
        let members = converted.payload.members
        XCTAssertEqual(members.filter { $0.key == "d" }.map(\.value), [.string("first")])
        XCTAssertEqual(members.filter { $0.key == "c7" }.map(\.value), [.number("1")])
        XCTAssertEqual(members.filter { $0.key == "e" }.map(\.value), [.string("kept")])
        XCTAssertEqual(members.filter { $0.key == "aps" }.count, 1)
    }
}
