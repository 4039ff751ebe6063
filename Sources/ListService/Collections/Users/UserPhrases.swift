/// The words user rows show, per language.
package struct UserPhrases: Sendable {
    /// "1 tap", "3 taps", "1,234 taps": the count, and it as the locale writes numbers.
    let taps: @Sendable (_ count: Int, _ shown: String) -> String

    static let translations = Translations(
        english: UserPhrases(taps: { $0 == 1 ? "1 tap" : "\($1) taps" }),
        [
            "de": UserPhrases(taps: { $0 == 1 ? "1 Tipp" : "\($1) Tipps" }),
            // French counts 0 and 1 in the singular.
            "fr": UserPhrases(taps: { $0 <= 1 ? "\($1) appui" : "\($1) appuis" }),
            "es": UserPhrases(taps: { $0 == 1 ? "1 toque" : "\($1) toques" }),
            "ja": UserPhrases(taps: { "\($1)回タップ" }),
        ])
}
