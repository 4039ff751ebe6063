/// A collection's phrases in every language it translates, English for the others. Amounts
/// and dates are formatted by Foundation for every locale; the few words rows show are ours.
package struct Translations<Phrases: Sendable>: Sendable {
    private let english: Phrases
    private let byLanguage: [String: Phrases]

    /// `byLanguage` by ISO 639 code (`de`, `ja`).
    package init(english: Phrases, _ byLanguage: [String: Phrases]) {
        self.english = english
        self.byLanguage = byLanguage
    }

    /// The phrases for a BCP 47 locale tag (`de-DE` reads `de`).
    package func phrases(for localeTag: String) -> Phrases {
        let language = DisplayContext.language(of: localeTag)
        return byLanguage[language] ?? english
    }
}
