import Basics
import CICU

/// A locale's alphabetic index, as a contact list's A–Z strip shows it: its letters in the
/// locale's order, "#" last, and the letter a name files under.
///
/// The letters are A–Z with ICU's index letters for the locale (Swedish adds Å Ä Ö, Spanish Ñ,
/// Japanese the kana rows あ か さ …), in the locale's collation; a letter equal on its base
/// letters to one before it is left out (German lists Ä but files it under A). A name files
/// under the last letter that collates at or before it on base letters alone, so a list sorted
/// by the same collation meets its letters in order, each once: "Zander" under Z and "Örjan"
/// under Ö in Swedish, "Ñandú" under Ñ in Spanish, "Ühler" under Y in Swedish. A name that
/// starts in a script the index has no letter of (a digit, a symbol, Greek in English, kanji)
/// files under "#".
package struct AlphabeticIndex: Sendable {
    /// The letters in order, "#" last.
    package let letters: [String]
    /// Each letter's key on base letters, in the order of `letters` (without "#").
    private let letterKeys: [CollationKey]
    /// The scripts of the letters (hiragana and katakana as one).
    private let scripts: Set<Int32>
    private let collation: Collation

    /// The index of `localeTag`, made once per tag.
    package static func of(_ localeTag: String) -> AlphabeticIndex {
        if let index = made.withLock({ $0[localeTag] }) { return index }
        let index = AlphabeticIndex(localeTag: localeTag)
        made.withLock { $0[localeTag] = index }
        return index
    }

    // Bounded: tags are the negotiated ones (`LocaleNegotiation`).
    private static let made = Locked<[String: AlphabeticIndex]>([:])

    package init(localeTag: String) {
        let collation = Collation.of(localeTag)
        let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let candidates = Set(latin + Self.indexLetters(of: localeTag)).map { (letter: $0, key: collation.key($0)) }
        var letters: [String] = [], letterKeys: [CollationKey] = []
        for candidate in candidates.sorted(by: { $0.key < $1.key }) {
            let baseKey = collation.baseLetterKey(candidate.letter)
            if baseKey == letterKeys.last { continue }
            letters.append(candidate.letter)
            letterKeys.append(baseKey)
        }
        self.letters = letters + ["#"]
        self.letterKeys = letterKeys
        scripts = Set(letters.compactMap { $0.unicodeScalars.first.map { cicu_script(Int32($0.value)) } })
        self.collation = collation
    }

    /// The position in `letters` of the letter `name` files under.
    package func letterIndex(of name: String) -> Int {
        let trimmed = name.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.unicodeScalars.first, scripts.contains(cicu_script(Int32(first.value))) else {
            return letters.count - 1
        }
        let key = collation.baseLetterKey(String(trimmed))
        // The last letter at or before the name (the first one when the name sorts before it).
        var low = 0, high = letterKeys.count
        while low < high {
            let middle = (low + high) / 2
            if letterKeys[middle] <= key { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    /// ICU's index letters for `localeTag`, uppercase (`Å`, `Ä`, `Ö` in Swedish; a letter of two,
    /// as Czech `CH`, as one).
    private static func indexLetters(of localeTag: String) -> [String] {
        let icuLocale = String(localeTag.map { $0 == "-" ? "_" : $0 })
        var units = [UInt16](repeating: 0, count: 256)
        let needed = Int(cicu_index_letters(icuLocale, &units, Int32(units.count)))
        if needed > units.count {
            units = [UInt16](repeating: 0, count: needed)
            _ = cicu_index_letters(icuLocale, &units, Int32(units.count))
        }
        return units.prefix(needed).split(separator: 0).map { String(decoding: $0, as: UTF16.self) }
    }
}
