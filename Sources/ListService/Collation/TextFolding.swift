import Foundation

/// Case- and diacritic-insensitive search keys: `Jöhn` → `john`, `José` → `jose`, `ß` → `ss`.
package enum TextFolding {
    /// Folds `text`; ASCII takes a fast path that gives the same result as Foundation's folding.
    package static func fold(_ text: String) -> String {
        if isASCII(text) {
            return String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether `foldedSearch` is in one of `foldedTexts` (an item's searchable fields, folded);
    /// an empty search finds everything. What the search index finds, item by item.
    static func search(_ foldedSearch: String, findsIn foldedTexts: [String]) -> Bool {
        foldedSearch.isEmpty || foldedTexts.contains { $0.contains(foldedSearch) }
    }

    /// Whether `text` is ASCII only, so that folding it is cheap.
    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
}
