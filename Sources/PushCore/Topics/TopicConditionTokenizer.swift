/// Splits a topic condition into tokens, one at a time, so that the parser reports the
/// first fault by position whether it is lexical or grammatical. Offsets count Unicode
/// scalars (for the ASCII conditions people write, characters).
struct TopicConditionTokenizer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// True when the input holds nothing but whitespace.
    var isBlank: Bool {
        scalars.allSatisfy(\.properties.isWhitespace)
    }

    /// The next token; `.end` forever once the input is used up.
    mutating func next() throws(TopicConditionError) -> TopicConditionToken {
        while position < scalars.count, scalars[position].properties.isWhitespace {
            position += 1
        }
        let start = position
        guard position < scalars.count else { return TopicConditionToken(kind: .end, offset: start) }
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case "'", "\"":
            guard let close = scalars[position...].firstIndex(of: scalar) else {
                throw TopicConditionError(.unterminatedName(quote: Character(scalar)), at: start)
            }
            var name = String.UnicodeScalarView()
            name.append(contentsOf: scalars[position..<close])
            position = close + 1
            return TopicConditionToken(kind: .name(String(name)), offset: start)
        case "&", "|":
            guard position < scalars.count, scalars[position] == scalar else {
                throw TopicConditionError(.singleOperatorCharacter(Character(scalar)), at: start)
            }
            position += 1
            return TopicConditionToken(kind: scalar == "&" ? .and : .or, offset: start)
        case "!": return TopicConditionToken(kind: .not, offset: start)
        case "(": return TopicConditionToken(kind: .open, offset: start)
        case ")": return TopicConditionToken(kind: .close, offset: start)
        default:
            guard Self.isWordScalar(scalar) else {
                throw TopicConditionError(.unexpectedCharacter(Character(scalar)), at: start)
            }
            while position < scalars.count, Self.isWordScalar(scalars[position]) {
                position += 1
            }
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[start..<position])
            return TopicConditionToken(kind: .word(String(word)), offset: start)
        }
    }

    /// Words are runs of topic-name characters, so that an unquoted name such as
    /// `stock-GOOG` is quoted whole in the error that asks for quotes.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && TopicNameCharacter.isAllowed(UInt8(scalar.value))
    }
}
