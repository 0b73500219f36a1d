/// A parsed FCM topic condition (`message.condition`), such as
/// `'stock-GOOG' in topics && ('industry-tech' in topics || !('news' in topics))`.
///
/// Evaluation follows FCM's documented rule: parentheses first, then left to right. `&&` and
/// `||` have equal precedence, so `'a' in topics || 'b' in topics && 'c' in topics` means
/// `('a' in topics || 'b' in topics) && 'c' in topics` — unlike C, where `&&` binds tighter.
/// `!` applies to the single term or parenthesized group right after it and may repeat.
public indirect enum TopicCondition: Sendable, Equatable, CustomStringConvertible {
    /// `'name' in topics`: the device is subscribed to `name`.
    case subscribed(String)
    /// `!operand`; true for a device subscribed to no topic at all when `operand` is false.
    case not(TopicCondition)
    /// `left && right`.
    case and(TopicCondition, TopicCondition)
    /// `left || right`.
    case or(TopicCondition, TopicCondition)

    /// The most `in topics` terms FCM accepts in one condition. Terms are counted as they
    /// occur, so `'a' in topics || 'a' in topics` uses 2.
    public static let maximumTopicCount = 5

    /// The deepest the emulator lets parentheses nest, and separately the most `!` that may
    /// be in effect at one term. FCM's own limit is not documented; this one only keeps
    /// hostile input from exhausting the stack, and no useful 5-term condition comes near it.
    public static let maximumNestingDepth = 64

    /// Parses a condition, accepting `'name'` or `"name"`, any whitespace between tokens (or
    /// none where unambiguous), and the keywords `in` and `topics` in lower case only.
    /// Throws the first fault by position, or `tooManyTopics` once a 6th term appears.
    public init(parsing text: String) throws(TopicConditionError) {
        self = try TopicConditionParser.parse(text)
    }

    /// True when a device subscribed to exactly `topics` receives the message.
    public func matches(_ topics: Set<String>) -> Bool {
        matches { topics.contains($0) }
    }

    /// Whether a device matches, asking `isSubscribed` about each topic the evaluation needs
    /// (so a fan-out over many devices builds no set per device).
    public func matches(_ isSubscribed: (String) -> Bool) -> Bool {
        switch self {
        case .subscribed(let name): isSubscribed(name)
        case .not(let operand): !operand.matches(isSubscribed)
        case .and(let left, let right): left.matches(isSubscribed) && right.matches(isSubscribed)
        case .or(let left, let right): left.matches(isSubscribed) || right.matches(isSubscribed)
        }
    }

    /// The topic of every term, in order of appearance, repeats included (so never more than
    /// `maximumTopicCount` for a parsed condition).
    public var topicNames: [String] {
        switch self {
        case .subscribed(let name): [name]
        case .not(let operand): operand.topicNames
        case .and(let left, let right), .or(let left, let right): left.topicNames + right.topicNames
        }
    }

    /// The canonical text: single quotes, one space around operators, and parentheses around
    /// every `&&`/`||` below the top and around every negated term, so the grouping that
    /// left-to-right evaluation chose is visible: `('a' in topics || 'b' in topics) && !('c' in topics)`.
    /// Parsing it gives back an equal condition.
    public var description: String {
        switch self {
        case .and(let left, let right): left.grouped + " && " + right.grouped
        case .or(let left, let right): left.grouped + " || " + right.grouped
        case .subscribed, .not: grouped
        }
    }

    /// The text as an operand: terms bare, negations as `!(…)` or `!!(…)`, `&&`/`||` in parentheses.
    private var grouped: String {
        switch self {
        case .subscribed(let name): "'\(name)' in topics"
        case .not(.subscribed(let name)): "!('\(name)' in topics)"
        case .not(let operand): "!" + operand.grouped
        case .and, .or: "(" + description + ")"
        }
    }
}
