// libFuzzer target for JSONParser: any bytes must either fail cleanly or parse to a value
// that survives serialize → parse unchanged and serializes to the same bytes again.
// Built by scripts/fuzz-json.sh with swiftc directly, from the ByteCoding sources alone.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let value: JSONValue
    do {
        value = try JSONParser.parse(input)
    } catch {
        // Errors must describe themselves without trapping.
        _ = error.googleDescription
        return 0
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
