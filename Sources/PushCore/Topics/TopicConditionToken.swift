/// One lexical unit of a topic condition, with the Unicode scalar offset where it starts.
struct TopicConditionToken: Equatable {
    /// What the token is.
    enum Kind: Equatable {
        /// A quoted topic name, without its quotes (not yet checked for allowed characters).
        case name(String)
        /// A bare word: the keywords `in` and `topics`, or a mistake such as an unquoted name.
        case word(String)
        /// `&&`
        case and
        /// `||`
        case or
        /// `!`
        case not
        /// `(`
        case open
        /// `)`
        case close
        /// The end of the input.
        case end
    }

    /// What the token is.
    var kind: Kind
    /// Where it starts, in Unicode scalars from 0.
    var offset: Int

    /// How an error message quotes what it found here.
    var quoted: String {
        switch kind {
        case .name(let name): "the topic name '\(name)'"
        case .word(let word): "`\(word)`"
        case .and: "`&&`"
        case .or: "`||`"
        case .not: "`!`"
        case .open: "`(`"
        case .close: "`)`"
        case .end: "the end of the condition"
        }
    }
}
