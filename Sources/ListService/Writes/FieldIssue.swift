/// What is wrong with one field of a write body, as a value: the words are chosen when the
/// problem is shown, in the client's language (`ValidationPhrases`).
package enum FieldIssue: Sendable, Equatable {
    case required
    /// Present, but null where a value is needed.
    case notNull(ValueKind)
    /// Present, but of another kind (`found` is the JSON kind it has).
    case wrongKind(expected: ValueKind, found: JSONKind)
    case empty
    case tooLong(maxCharacters: Int)
    case controlCharacters
    case unknownField
    case oneOf([String])
    case wholeNumber(ClosedRange<Int>)
    case notNegative
    case atMost(String)
    case atMostTwoDecimals
    case atLeastItems(Int)
    case atMostItems(Int)
    case dateOrTimestamp
    case itemIDOrNull
    /// Said as is, untranslated (a feed's own reasons).
    case text(String)

    /// The kinds of value a field may need.
    package enum ValueKind: Sendable, Equatable {
        case string, boolean, number, object, array
    }
}
