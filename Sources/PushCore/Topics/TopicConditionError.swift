/// Why a string is not a valid FCM topic condition, and where.
///
/// `message` says what is wrong, at which offset (Unicode scalars from 0, which for the ASCII
/// conditions people write are characters) and how to fix it; the FCM layer answers it as
/// the description of a 400 INVALID_ARGUMENT on `message.condition`.
public struct TopicConditionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// Nothing but whitespace.
        case empty
        /// A quote with no closing quote of the same kind.
        case unterminatedName(quote: Character)
        /// `''` or `""`.
        case emptyName
        /// A quoted name with characters outside `[a-zA-Z0-9-_.~%]`.
        case invalidName(String)
        /// A lone `&` or `|`.
        case singleOperatorCharacter(Character)
        /// A character that starts no token.
        case unexpectedCharacter(Character)
        /// Where a term, `!` or `(` belongs, something else; `found` quotes it.
        case expectedTerm(found: String)
        /// Where a term belongs, a bare word such as `news`: most likely a name without quotes.
        case unquotedName(String)
        /// A topic name not followed by `in topics`; `found` quotes what followed.
        case expectedInTopics(name: String, found: String)
        /// After a complete term or group, neither an operator nor what closes it.
        /// `insideParentheses` tells whether `)` would also have been right.
        case expectedOperator(found: String, insideParentheses: Bool)
        /// A `(` never closed; the offset is the `(`'s.
        case unclosedParenthesis
        /// A `)` with no `(` before it.
        case unmatchedClosingParenthesis
        /// Parentheses, or `!` in effect, nested past `TopicCondition.maximumNestingDepth`.
        case tooDeep
        /// More terms than `TopicCondition.maximumTopicCount`; the offset is the first extra one's.
        case tooManyTopics(count: Int)
    }

    /// What was wrong.
    public var reason: Reason
    /// Where, in Unicode scalars from 0.
    public var offset: Int

    /// Makes an error at `offset`.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    private static let example = "'news' in topics && 'sports' in topics"

    /// What is wrong, where, and how to fix it, in one or two sentences.
    public var message: String {
        switch reason {
        case .empty:
            "The condition is empty: write e.g. \"\(Self.example)\"."
        case .unterminatedName(let quote):
            "Unterminated topic name at offset \(offset): end it with a matching \(quote)."
        case .emptyName:
            "Empty topic name at offset \(offset): write a topic name between the quotes, as in 'news' in topics."
        case .invalidName(let name):
            "Invalid topic name \"\(name)\" at offset \(offset): use 1 to \(TopicNameCharacter.maximumNameLength) of the"
                + " characters a-z A-Z 0-9 - _ . ~ %, without the /topics/ prefix."
        case .singleOperatorCharacter(let character):
            "A single `\(character)` at offset \(offset): write `\(character)\(character)`"
                + (character == "&" ? " for and." : " for or.")
        case .unexpectedCharacter(let character):
            "Unexpected character `\(character)` at offset \(offset): a condition holds only quoted topic names,"
                + " `in topics`, `&&`, `||`, `!` and parentheses."
        case .expectedTerm(let found):
            "Expected a term such as 'news' in topics, `!` or `(` at offset \(offset); found \(found)."
        case .unquotedName(let word):
            "Expected a term such as 'news' in topics, `!` or `(` at offset \(offset); found `\(word)`."
                + " Quote topic names, as in '\(word)' in topics."
        case .expectedInTopics(let name, let found):
            "Expected `in topics` after '\(name)' at offset \(offset); found \(found)"
                + (Self.isMiscasedKeyword(found) ? " (`in` and `topics` are lower case)." : ".")
        case .expectedOperator(let found, let insideParentheses):
            "Expected \(insideParentheses ? "`&&`, `||` or `)`" : "`&&` or `||`") at offset \(offset); found \(found)."
                + " Join terms with && or ||."
        case .unclosedParenthesis:
            "Unbalanced parenthesis: the `(` at offset \(offset) is never closed; add a `)`."
        case .unmatchedClosingParenthesis:
            "Unbalanced parenthesis: the `)` at offset \(offset) has no matching `(`; remove it or add a `(`."
        case .tooDeep:
            "The condition nests parentheses or `!` more than \(TopicCondition.maximumNestingDepth) levels deep"
                + " at offset \(offset); simplify it."
        case .tooManyTopics(let count):
            "The condition uses \(count) topics; FCM allows at most \(TopicCondition.maximumTopicCount)."
                + " The first one over is at offset \(offset): split the message into several sends."
        }
    }

    /// True when what was found is `in` or `topics` in the wrong case, such as `IN` or `Topics`.
    private static func isMiscasedKeyword(_ found: String) -> Bool {
        found != found.lowercased() && (found.lowercased().contains("`in`") || found.lowercased().contains("`topics`"))
    }

    /// The same as `message`.
    public var description: String { message }
}
