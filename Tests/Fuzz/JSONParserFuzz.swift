// libFuzzer target for JSONParser: any bytes must either fail cleanly or parse to a value
// that survives serialize → parse unchanged and serializes to the same bytes again; and
// JSONValidator, wherever it decides, must decide as the parser does.
// Built by scripts/fuzz.sh json with swiftc directly, from the ByteCoding sources alone.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let verdict = JSONValidator.check(input)
    let value: JSONValue
    do {
        value = try JSONParser.parse(input)
    } catch {
        // Errors must describe themselves without trapping.
        _ = error.googleDescription
        precondition(verdict == .invalid || verdict == .undecided, "the validator accepts what the parser refuses")
        return 0
    }
    if case .object = value {
        precondition(verdict == .object || verdict == .undecided, "the validator differs on an object: \(verdict)")
    } else {
        precondition(verdict == .otherValue || verdict == .undecided, "the validator differs on a non-object: \(verdict)")
    }
    let serialized = JSONSerializer.serialize(value)
    let reparsed: JSONValue
    do {
        reparsed = try JSONParser.parse(serialized)
    } catch {
        fatalError("serialized output does not parse: \(error) in \(String(decoding: serialized, as: UTF8.self))")
    }
    precondition(reparsed == value, "round trip changed the value")
    precondition(JSONSerializer.serialize(reparsed) == serialized, "serialization is not stable")
    return 0
}
