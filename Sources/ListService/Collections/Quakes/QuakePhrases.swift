/// The words earthquake rows show, per language.
package struct QuakePhrases: Sendable {
    let unknownLocation: String
    /// Headings of a list grouped by magnitude: the bands `under2`, `2to4`, `4to6`, `6plus`,
    /// and quakes the feed gave no magnitude.
    let bands: [String]
    let unknownMagnitude: String

    static let translations = Translations(
        english: QuakePhrases(
            unknownLocation: "Unknown location", bands: ["Under 2", "2 to 4", "4 to 6", "6 and over"],
            unknownMagnitude: "Unknown magnitude"),
        [
            "de": QuakePhrases(
                unknownLocation: "Unbekannter Ort", bands: ["Unter 2", "2 bis 4", "4 bis 6", "6 und mehr"],
                unknownMagnitude: "Magnitude unbekannt"),
            "fr": QuakePhrases(
                unknownLocation: "Lieu inconnu", bands: ["Moins de 2", "2 à 4", "4 à 6", "6 et plus"],
                unknownMagnitude: "Magnitude inconnue"),
            "es": QuakePhrases(
                unknownLocation: "Ubicación desconocida", bands: ["Menos de 2", "2 a 4", "4 a 6", "6 o más"],
                unknownMagnitude: "Magnitud desconocida"),
            "ja": QuakePhrases(
                unknownLocation: "場所不明", bands: ["2未満", "2〜4", "4〜6", "6以上"], unknownMagnitude: "マグニチュード不明"),
        ])
}
