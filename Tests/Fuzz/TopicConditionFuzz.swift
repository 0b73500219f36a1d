// libFuzzer target for the topic-condition parser: any bytes (decoded as UTF-8, invalid
// sequences replaced) must either fail cleanly with an in-range offset, or parse to a
// condition with 1 to 5 terms whose evaluation never traps, whose negation is its opposite,
// and whose canonical text parses back to an equal condition and renders the same again.
// Built by scripts/fuzz.sh condition with swiftc directly, from the condition sources only.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTopicCondition(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let condition: TopicCondition
    do {
        condition = try TopicCondition(parsing: text)
    } catch {
        precondition(!error.message.isEmpty, "empty error message")
        precondition(
            (0...text.unicodeScalars.count).contains(error.offset),
            "offset \(error.offset) outside the input: \(error.message)")
        return 0
    }
    let names = condition.topicNames
    precondition(
        (1...TopicCondition.maximumTopicCount).contains(names.count), "\(names.count) topics in \(condition)")
    // Every subset of the condition's own topics, plus a stranger, decides every term both ways.
    let distinct = Array(Set(names))
    for mask in 0..<(1 << distinct.count) {
        var topics: Set<String> = ["not-in-the-condition"]
        for (index, name) in distinct.enumerated() where mask & (1 << index) != 0 {
            topics.insert(name)
        }
        precondition(TopicCondition.not(condition).matches(topics) == !condition.matches(topics))
    }
    _ = condition.matches([])
    let canonical = condition.description
    let reparsed: TopicCondition
    do {
        reparsed = try TopicCondition(parsing: canonical)
    } catch {
        fatalError("canonical text does not parse: \(error.message) in \(canonical)")
    }
    precondition(reparsed == condition, "round trip changed \(text) into \(canonical)")
    precondition(reparsed.description == canonical, "canonical text is not stable: \(canonical)")
    return 0
}
