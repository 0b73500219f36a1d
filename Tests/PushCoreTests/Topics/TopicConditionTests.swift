import XCTest
import PushCore

final class TopicConditionTests: XCTestCase {
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> TopicCondition? {
        do {
            return try TopicCondition(parsing: text)
        } catch {
            XCTFail("\(text): \(error.message)", file: file, line: line)
            return nil
        }
    }

    /// Asserts that `text` is rejected at `offset` with a message containing every fragment.
    private func assertRejected(
        _ text: String, at offset: Int, saying fragments: String...,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let condition = try TopicCondition(parsing: text)
            XCTFail("\(text): accepted as \(condition)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.offset, offset, "\(text): \(error.message)", file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(
                    error.message.contains(fragment), "\(text): \(error.message) lacks \(fragment)",
                    file: file, line: line)
            }
        }
    }

    // MARK: Evaluation order

    func testAndAndOrHaveEqualPrecedenceLeftToRight() throws {
        let condition = try XCTUnwrap(parse("'a' in topics || 'b' in topics && 'c' in topics"))
        XCTAssertEqual(condition, .and(.or(.subscribed("a"), .subscribed("b")), .subscribed("c")))
        // C-style precedence would read a || (b && c) and deliver to a device subscribed to a only.
        XCTAssertFalse(condition.matches(["a"]))
        XCTAssertTrue(condition.matches(["a", "c"]))
        XCTAssertTrue(condition.matches(["b", "c"]))
        XCTAssertFalse(condition.matches(["b"]))
    }

    func testAndThenOrIsAlsoLeftToRight() throws {
        let condition = try XCTUnwrap(parse("'a' in topics && 'b' in topics || 'c' in topics"))
        XCTAssertEqual(condition, .or(.and(.subscribed("a"), .subscribed("b")), .subscribed("c")))
        XCTAssertTrue(condition.matches(["c"]))
        XCTAssertFalse(condition.matches(["a"]))
    }

    func testParenthesesComeFirst() throws {
        let condition = try XCTUnwrap(parse("'a' in topics || ('b' in topics && 'c' in topics)"))
        XCTAssertEqual(condition, .or(.subscribed("a"), .and(.subscribed("b"), .subscribed("c"))))
        XCTAssertTrue(condition.matches(["a"]))
        XCTAssertFalse(condition.matches(["b"]))
    }

    func testGooglesExampleWithNesting() throws {
        let condition = try XCTUnwrap(
            parse("'stock-GOOG' in topics && ('industry-tech' in topics || !('news' in topics))"))
        XCTAssertEqual(
            condition,
            .and(.subscribed("stock-GOOG"), .or(.subscribed("industry-tech"), .not(.subscribed("news")))))
        XCTAssertTrue(condition.matches(["stock-GOOG"]))
        XCTAssertTrue(condition.matches(["stock-GOOG", "news", "industry-tech"]))
        XCTAssertFalse(condition.matches(["stock-GOOG", "news"]))
        XCTAssertFalse(condition.matches(["industry-tech"]))
        XCTAssertEqual(condition.topicNames, ["stock-GOOG", "industry-tech", "news"])
    }

    func testDeepRedundantParentheses() throws {
        let condition = try XCTUnwrap(parse("((('a' in topics)) && ((('b' in topics) || 'c' in topics)))"))
        XCTAssertEqual(condition, .and(.subscribed("a"), .or(.subscribed("b"), .subscribed("c"))))
    }

    // MARK: Negation

    func testNegationMatchesDevicesWithNoSubscriptions() throws {
        let condition = try XCTUnwrap(parse("!('news' in topics)"))
        XCTAssertEqual(condition, .not(.subscribed("news")))
        XCTAssertTrue(condition.matches([]))
        XCTAssertTrue(condition.matches(["sports"]))
        XCTAssertFalse(condition.matches(["news"]))
    }

    func testNegationBindsToTheNextTermOnly() throws {
        let condition = try XCTUnwrap(parse("!'a' in topics && 'b' in topics"))
        XCTAssertEqual(condition, .and(.not(.subscribed("a")), .subscribed("b")))
        XCTAssertFalse(condition.matches([]))
        XCTAssertTrue(condition.matches(["b"]))
    }

    func testNegationOfAGroup() throws {
        let condition = try XCTUnwrap(parse("!('a' in topics || 'b' in topics)"))
        XCTAssertEqual(condition, .not(.or(.subscribed("a"), .subscribed("b"))))
        XCTAssertTrue(condition.matches([]))
        XCTAssertFalse(condition.matches(["b"]))
    }

    func testDoubleNegation() throws {
        let condition = try XCTUnwrap(parse("!!('a' in topics)"))
        XCTAssertEqual(condition, .not(.not(.subscribed("a"))))
        XCTAssertTrue(condition.matches(["a"]))
        XCTAssertFalse(condition.matches([]))
        XCTAssertEqual(try XCTUnwrap(parse("! ! 'a' in topics")), condition)
    }

    // MARK: Spelling

    func testQuotesAndWhitespaceVariants() {
        let expected = TopicCondition.and(.subscribed("a"), .not(.subscribed("b_c.d~e%f")))
        for text in [
            "'a' in topics && !('b_c.d~e%f' in topics)",
            "\"a\" in topics && !(\"b_c.d~e%f\" in topics)",
            "'a' in topics&&!('b_c.d~e%f' in topics)",
            "'a'in topics&&!'b_c.d~e%f'in topics",
            "\t'a'\n in\ttopics \r\n&&  ! ( 'b_c.d~e%f' in  topics ) \n",
        ] {
            XCTAssertEqual(parse(text), expected, text)
        }
    }

    func testDescriptionIsFullyParenthesizedAndParsesBack() throws {
        let condition = try XCTUnwrap(parse("'a' in topics || \"b\" in topics && !!'c' in topics || !('d' in topics && 'e' in topics)"))
        XCTAssertEqual(
            condition.description,
            "(('a' in topics || 'b' in topics) && !!('c' in topics)) || !('d' in topics && 'e' in topics)")
        XCTAssertEqual(parse(condition.description), condition)
        XCTAssertEqual(TopicCondition.subscribed("a").description, "'a' in topics")
    }

    // MARK: The topic limit

    func testFiveTopicsAreAllowed() throws {
        let condition = try XCTUnwrap(parse("'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics"))
        XCTAssertEqual(condition.topicNames, ["a", "b", "c", "d", "e"])
        XCTAssertEqual(TopicCondition.maximumTopicCount, 5)
    }

    func testSixTopicsAreRejected() {
        let text = "'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics || 'f' in topics"
        assertRejected(text, at: 85, saying: "The condition uses 6 topics; FCM allows at most 5.", "offset 85")
    }

    func testRepeatedTopicsCountEachTime() {
        let repeated = Array(repeating: "'a' in topics", count: 7).joined(separator: " || ")
        assertRejected(repeated, at: 85, saying: "uses 7 topics")
        XCTAssertEqual(parse("'a' in topics || 'a' in topics")?.topicNames, ["a", "a"])
    }

    func testNestingIsCapped() {
        let depth = TopicCondition.maximumNestingDepth
        let deepest = String(repeating: "(", count: depth) + "'a' in topics" + String(repeating: ")", count: depth)
        XCTAssertEqual(parse(deepest), .subscribed("a"))
        let tooDeep = "(" + deepest + ")"
        assertRejected(tooDeep, at: depth, saying: "more than 64 levels deep", "offset 64")
        let bangs = String(repeating: "!", count: depth + 1) + "'a' in topics"
        assertRejected(bangs, at: depth, saying: "more than 64 levels deep")
        // A hostile input far past the cap fails cleanly instead of exhausting the stack.
        assertRejected(String(repeating: "(", count: 100_000), at: depth, saying: "levels deep")
        assertRejected(String(repeating: "!(", count: 50_000), at: 2 * depth, saying: "levels deep")
    }

    // MARK: Malformed conditions

    func testEmpty() {
        assertRejected("", at: 0, saying: "The condition is empty")
        assertRejected(" \n\t", at: 0, saying: "The condition is empty")
    }

    func testUnbalancedParentheses() {
        assertRejected("('a' in topics", at: 0, saying: "Unbalanced parenthesis", "`(` at offset 0 is never closed")
        assertRejected(
            "'a' in topics && (('b' in topics)", at: 17, saying: "`(` at offset 17 is never closed", "add a `)`")
        assertRejected("'a' in topics)", at: 13, saying: "Unbalanced parenthesis", "`)` at offset 13 has no matching `(`")
        assertRejected(")'a' in topics", at: 0, saying: "Expected a term", "found `)`")
    }

    func testMissingInTopics() {
        assertRejected("'news' && 'a' in topics", at: 7, saying: "Expected `in topics` after 'news' at offset 7; found `&&`")
        assertRejected("'news'", at: 6, saying: "Expected `in topics` after 'news'", "found the end of the condition")
        assertRejected("'news' topics", at: 7, saying: "Expected `in topics` after 'news'", "found `topics`")
    }

    func testInTopic() {
        assertRejected("'news' in topic", at: 7, saying: "Expected `in topics` after 'news' at offset 7; found `in` then `topic`.")
        assertRejected("'news' in", at: 7, saying: "found `in` then the end of the condition")
    }

    func testKeywordsAreCaseSensitive() {
        assertRejected("'news' IN topics", at: 7, saying: "found `IN`", "lower case")
        assertRejected("'news' in Topics", at: 7, saying: "found `in` then `Topics`", "lower case")
    }

    func testTrailingOperator() {
        assertRejected("'a' in topics &&", at: 16, saying: "Expected a term", "found the end of the condition")
        assertRejected("'a' in topics || ", at: 17, saying: "Expected a term", "found the end of the condition")
        assertRejected("'a' in topics && !", at: 18, saying: "Expected a term", "found the end of the condition")
    }

    func testLeadingOperator() {
        assertRejected("&& 'a' in topics", at: 0, saying: "Expected a term", "found `&&`")
        assertRejected("('a' in topics || || 'b' in topics)", at: 18, saying: "Expected a term", "found `||`")
    }

    func testSingleAmpersandOrBar() {
        assertRejected("'a' in topics & 'b' in topics", at: 14, saying: "A single `&` at offset 14: write `&&`")
        assertRejected("'a' in topics | 'b' in topics", at: 14, saying: "A single `|` at offset 14: write `||`")
        assertRejected("'a' in topics &| 'b' in topics", at: 14, saying: "A single `&`")
    }

    func testUnterminatedQuote() {
        assertRejected("'a' in topics && 'b in topics", at: 17, saying: "Unterminated topic name at offset 17: end it with a matching '")
        assertRejected("\"a' in topics", at: 0, saying: "Unterminated topic name", "with a matching \"")
    }

    func testBadTopicCharacters() {
        assertRejected("'a b' in topics", at: 0, saying: "Invalid topic name \"a b\" at offset 0", "a-z A-Z 0-9 - _ . ~ %")
        assertRejected("'x' in topics || '/topics/news' in topics", at: 17, saying: "Invalid topic name \"/topics/news\"")
        assertRejected("'café' in topics", at: 0, saying: "Invalid topic name \"café\"")
        // The length rule is the subscriptions' one: a condition once took any length.
        let long = String(repeating: "a", count: 901)
        assertRejected("'x' in topics || '\(long)' in topics", at: 17, saying: "Invalid topic name \"\(long)\"", "use 1 to 900")
        XCTAssertNoThrow(try TopicCondition(parsing: "'\(String(repeating: "a", count: 900))' in topics"))
    }

    func testEmptyName() {
        assertRejected("'' in topics", at: 0, saying: "Empty topic name at offset 0")
        assertRejected("'a' in topics || \"\" in topics", at: 17, saying: "Empty topic name")
    }

    func testTermsWithoutOperator() {
        assertRejected("'a' in topics 'b' in topics", at: 14, saying: "Expected `&&` or `||` at offset 14", "found the topic name 'b'")
        assertRejected("('a' in topics 'b' in topics)", at: 15, saying: "Expected `&&`, `||` or `)` at offset 15")
        assertRejected("'a' in topics ('b' in topics)", at: 14, saying: "Expected `&&` or `||`", "found `(`")
        assertRejected("'a' in topics !'b' in topics", at: 14, saying: "found `!`")
    }

    func testUnquotedName() {
        assertRejected("news in topics", at: 0, saying: "found `news`", "Quote topic names, as in 'news' in topics")
        assertRejected("'a' in topics && stock-GOOG in topics", at: 17, saying: "found `stock-GOOG`")
    }

    func testStrayCharacters() {
        assertRejected("'a' in topics; 'b' in topics", at: 13, saying: "Unexpected character `;` at offset 13")
        assertRejected("'a' in topics && #", at: 17, saying: "Unexpected character `#`")
        assertRejected("'a' in topics \u{1F600}", at: 14, saying: "Unexpected character `\u{1F600}` at offset 14")
        assertRejected("'a' in topics topics", at: 14, saying: "Expected `&&` or `||`", "found `topics`")
    }

    func testTheFirstFaultByPositionIsReported() {
        assertRejected("'a' in topic && 'b c' in topics", at: 4, saying: "`in` then `topic`")
    }
}
