/// Hands out one shared copy of each distinct string: 100,000 orders name about a thousand
/// customers, so their names need not be stored 100,000 times.
struct StringInterner {
    private var strings: [String: String] = [:]

    mutating func intern(_ string: String) -> String {
        if let existing = strings[string] { return existing }
        strings[string] = string
        return string
    }
}
