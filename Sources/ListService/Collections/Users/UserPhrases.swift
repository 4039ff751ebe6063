/// The words user rows show, per language.
package struct UserPhrases: Sendable {
    /// "1 tap", "3 taps".
    let taps: @Sendable (Int) -> String

    static let translations = Translations(
        english: UserPhrases(taps: { $0 == 1 ? "1 tap" : "\($0) taps" }),
        [
            "de": UserPhrases(taps: { $0 == 1 ? "1 Tipp" : "\($0) Tipps" }),
            // French counts 0 and 1 in the singular.
            "fr": UserPhrases(taps: { $0 <= 1 ? "\($0) appui" : "\($0) appuis" }),
            "es": UserPhrases(taps: { $0 == 1 ? "1 toque" : "\($0) toques" }),
            "ja": UserPhrases(taps: { "\($0)回タップ" }),
        ])
}
