import Foundation

/// People fall under the first letter of their name by the client's alphabetic index
/// (`initial`, sorted by name): "Ä" under "A" in German, its own letter in Swedish, the kana
/// rows in Japanese, "#" last. The name order is the service's, not the locale's collation:
/// where a locale's own letter sorts among another's, its section repeats under a numbered key.
extension Users {
    package enum Grouping: String, ListChoice {
        case initial
    }

    package static func sortField(for grouping: Grouping) -> SortField { .name }

    package static func section(of user: User, grouping: Grouping, in context: SectionContext) -> Int64 {
        Int64(AlphabeticIndex.of(context.display.localeTag).letterIndex(of: user.name))
    }

    package static func sectionKey(_ section: Int64, grouping: Grouping, in context: SectionContext) -> String {
        let letters = AlphabeticIndex.of(context.display.localeTag).letters
        return letters[Int(min(max(section, 0), Int64(letters.count - 1)))]
    }

    package static func heading(
        of section: Int64, grouping: Grouping, in context: SectionContext, writing row: inout RowContext<UserPhrases>
    ) -> (title: String, subtitle: String?, validUntil: Date?) {
        (sectionKey(section, grouping: grouping, in: context), nil, nil)
    }
}
