/// A recursive-descent parser for topic conditions, following FCM's documented rule:
/// parentheses first, then left to right. `&&` and `||` have equal precedence and associate
/// to the left, so `A || B && C` is `(A || B) && C`; `!` applies to the one term or group
/// right after it and may repeat.
///
/// Grammar (whitespace allowed between any two tokens):
///
///     sequence := unary (("&&" | "||") unary)*
///     unary    := "!"* primary
///     primary  := name "in" "topics" | "(" sequence ")"
///
/// The parser recurses only at `(` and builds `!` runs in a loop; both are capped at
/// `TopicCondition.maximumNestingDepth`, so no input can exhaust the stack, and at most
/// `TopicCondition.maximumTopicCount` terms are ever built.
struct TopicConditionParser {
    private var tokenizer: TopicConditionTokenizer
    private var current: TopicConditionToken
    private var termCount = 0

    /// Parses `text` completely.
    static func parse(_ text: String) throws(TopicConditionError) -> TopicCondition {
        let tokenizer = TopicConditionTokenizer(text)
        if tokenizer.isBlank { throw TopicConditionError(.empty, at: 0) }
        var parser = try TopicConditionParser(tokenizer)
        let condition = try parser.parseSequence(parenthesisDepth: 0, negationDepth: 0)
        switch parser.current.kind {
        case .end: return condition
        case .close: throw TopicConditionError(.unmatchedClosingParenthesis, at: parser.current.offset)
        default:
            throw TopicConditionError(
                .expectedOperator(found: parser.current.quoted, insideParentheses: false), at: parser.current.offset)
        }
    }

    private init(_ tokenizer: TopicConditionTokenizer) throws(TopicConditionError) {
        self.tokenizer = tokenizer
        current = try self.tokenizer.next()
    }

    private mutating func advance() throws(TopicConditionError) {
        current = try tokenizer.next()
    }

    private mutating func parseSequence(
        parenthesisDepth: Int, negationDepth: Int
    ) throws(TopicConditionError) -> TopicCondition {
        var result = try parseUnary(parenthesisDepth: parenthesisDepth, negationDepth: negationDepth)
        while true {
            switch current.kind {
            case .and:
                try advance()
                result = .and(result, try parseUnary(parenthesisDepth: parenthesisDepth, negationDepth: negationDepth))
            case .or:
                try advance()
                result = .or(result, try parseUnary(parenthesisDepth: parenthesisDepth, negationDepth: negationDepth))
            default:
                return result
            }
        }
    }

    private mutating func parseUnary(
        parenthesisDepth: Int, negationDepth: Int
    ) throws(TopicConditionError) -> TopicCondition {
        var negations = 0
        while current.kind == .not {
            negations += 1
            if negationDepth + negations > TopicCondition.maximumNestingDepth {
                throw TopicConditionError(.tooDeep, at: current.offset)
            }
            try advance()
        }
        var result = try parsePrimary(parenthesisDepth: parenthesisDepth, negationDepth: negationDepth + negations)
        for _ in 0..<negations {
            result = .not(result)
        }
        return result
    }

    private mutating func parsePrimary(
        parenthesisDepth: Int, negationDepth: Int
    ) throws(TopicConditionError) -> TopicCondition {
        switch current.kind {
        case .name(let name):
            return try parseTerm(name)
        case .open:
            let open = current.offset
            if parenthesisDepth >= TopicCondition.maximumNestingDepth {
                throw TopicConditionError(.tooDeep, at: open)
            }
            try advance()
            let inner = try parseSequence(parenthesisDepth: parenthesisDepth + 1, negationDepth: negationDepth)
            switch current.kind {
            case .close:
                try advance()
                return inner
            case .end:
                throw TopicConditionError(.unclosedParenthesis, at: open)
            default:
                throw TopicConditionError(
                    .expectedOperator(found: current.quoted, insideParentheses: true), at: current.offset)
            }
        case .word(let word) where word != "in" && word != "topics":
            throw TopicConditionError(.unquotedName(word), at: current.offset)
        default:
            throw TopicConditionError(.expectedTerm(found: current.quoted), at: current.offset)
        }
    }

    /// `name in topics`, with `current` on the name.
    private mutating func parseTerm(_ name: String) throws(TopicConditionError) -> TopicCondition {
        let nameOffset = current.offset
        if name.isEmpty { throw TopicConditionError(.emptyName, at: nameOffset) }
        if !TopicNameCharacter.isValidName(name) { throw TopicConditionError(.invalidName(name), at: nameOffset) }
        termCount += 1
        if termCount > TopicCondition.maximumTopicCount {
            throw TopicConditionError(.tooManyTopics(count: countRemainingTerms()), at: nameOffset)
        }
        try advance()
        guard current.kind == .word("in") else {
            throw TopicConditionError(.expectedInTopics(name: name, found: current.quoted), at: current.offset)
        }
        let inOffset = current.offset
        try advance()
        guard current.kind == .word("topics") else {
            throw TopicConditionError(
                .expectedInTopics(name: name, found: "`in` then " + current.quoted), at: inOffset)
        }
        try advance()
        return .subscribed(name)
    }

    /// The terms counted so far plus the names still ahead (up to any lexical fault), so
    /// that the error says how many topics the condition uses, not just that 6 is too many.
    private mutating func countRemainingTerms() -> Int {
        var count = termCount
        while true {
            guard let token = try? tokenizer.next() else { return count }
            switch token.kind {
            case .name: count += 1
            case .end: return count
            default: continue
            }
        }
    }
}
