/// The words earthquake rows show, per language.
package struct QuakePhrases: Sendable {
    let unknownLocation: String

    static let translations = Translations(
        english: QuakePhrases(unknownLocation: "Unknown location"),
        [
            "de": QuakePhrases(unknownLocation: "Unbekannter Ort"),
            "fr": QuakePhrases(unknownLocation: "Lieu inconnu"),
            "es": QuakePhrases(unknownLocation: "Ubicación desconocida"),
            "ja": QuakePhrases(unknownLocation: "場所不明"),
        ])
}
