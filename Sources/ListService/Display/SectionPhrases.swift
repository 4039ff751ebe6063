/// The words section headings of every collection share, per language: the days near today.
package struct SectionPhrases: Sendable {
    let today: String
    let yesterday: String
    let tomorrow: String

    /// "Today", "Yesterday", "Tomorrow" for a day `offset` days from today; nil for the others.
    func relativeDay(_ offset: Int64) -> String? {
        switch offset {
        case 0: today
        case -1: yesterday
        case 1: tomorrow
        default: nil
        }
    }

    static let translations = Translations(
        english: SectionPhrases(today: "Today", yesterday: "Yesterday", tomorrow: "Tomorrow"),
        [
            "de": SectionPhrases(today: "Heute", yesterday: "Gestern", tomorrow: "Morgen"),
            "fr": SectionPhrases(today: "Aujourd’hui", yesterday: "Hier", tomorrow: "Demain"),
            "es": SectionPhrases(today: "Hoy", yesterday: "Ayer", tomorrow: "Mañana"),
            "ja": SectionPhrases(today: "今日", yesterday: "昨日", tomorrow: "明日"),
        ])
}
