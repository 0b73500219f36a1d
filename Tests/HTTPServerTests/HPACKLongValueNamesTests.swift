import Testing
@testable import HTTPServer

@Suite struct HPACKLongValueNamesTests {
    /// Whether each name, seen in turn, was new.
    private func see(_ names: [String]) -> [Bool] {
        var seen = HPACKLongValueNames()
        return names.map { name in Array(name.utf8).withUnsafeBufferPointer { seen.isNew($0) } }
    }

    @Test func eachNameIsNewOnceOnly() {
        #expect(see(["apns-id", "apns-unique-id", "apns-id", "apns-unique-id", "date"]) == [true, true, false, false, true])
    }

    @Test func namesOfOneLengthAreToldApartByTheirBytes() {
        #expect(see(["apns-id", "apns-ie", "apns-id"]) == [true, true, false])
    }

    @Test func atMostTheLimitOfNamesIsRemembered() {
        let names = (0..<(HPACKLongValueNames.limit + 2)).map { "x-id-\($0)" }
        let results = see(names + [names[0]])
        #expect(results.prefix(HPACKLongValueNames.limit).allSatisfy { $0 })
        // Past the limit a name is never new: sent never indexed, as every long value was before.
        #expect(results.dropFirst(HPACKLongValueNames.limit) == [false, false, false])
    }

    @Test func aNameLongerThanTheLimitIsNeverNew() {
        let long = String(repeating: "n", count: HPACKLongValueNames.maxNameLength + 1)
        #expect(see([long, long]) == [false, false])
    }
}
