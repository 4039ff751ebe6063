import Basics
import Foundation

/// A locale's alphabetic index, as a contact list's A–Z strip shows it: its letters in order,
/// "#" last, and the letter a name files under. A letter with a diacritic files under its base
/// letter ("Ä" under "A" in German) unless the locale's alphabet has it as a letter of its own
/// (Swedish Å, Ä, Ö after Z); Japanese adds the kana rows あ か さ … わ after the Latin letters,
/// hiragana and katakana alike. Digits, symbols and other scripts file under "#".
package struct AlphabeticIndex: Sendable {
    /// The letters in order, "#" last.
    package let letters: [String]
    /// Letters of the locale's own after Z (`Å`, `Ä`, `Ö` in Swedish), by their uppercase text.
    private let ownLetters: [Character: Int]
    private let hasKana: Bool

    private static let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    /// The first hiragana of each kana row, and the row's heading.
    private static let kanaRows: [(first: UInt32, heading: String)] = [
        (0x3041, "あ"), (0x304B, "か"), (0x3055, "さ"), (0x305F, "た"), (0x306A, "な"), (0x306F, "は"), (0x307E, "ま"),
        (0x3083, "や"), (0x3089, "ら"), (0x308E, "わ"),
    ]

    /// Letters after Z by language.
    private static let lettersAfterZ: [String: [Character]] = [
        "sv": ["Å", "Ä", "Ö"], "fi": ["Å", "Ä", "Ö"], "da": ["Æ", "Ø", "Å"], "nb": ["Æ", "Ø", "Å"], "nn": ["Æ", "Ø", "Å"],
        "no": ["Æ", "Ø", "Å"],
    ]

    /// The index of `localeTag`'s language, made once per language.
    package static func of(_ localeTag: String) -> AlphabeticIndex {
        let language = DisplayContext.language(of: localeTag)
        return made.withLock { made in
            if let index = made[language] { return index }
            let index = AlphabeticIndex(localeTag: language)
            made[language] = index
            return index
        }
    }

    private static let made = Locked<[String: AlphabeticIndex]>([:])

    package init(localeTag: String) {
        let language = DisplayContext.language(of: localeTag)
        let extra = Self.lettersAfterZ[language] ?? []
        hasKana = language == "ja"
        ownLetters = Dictionary(uniqueKeysWithValues: extra.enumerated().map { ($0.element, Self.latin.count + $0.offset) })
        letters = Self.latin + extra.map(String.init) + (hasKana ? Self.kanaRows.map(\.heading) : []) + ["#"]
    }

    /// The position in `letters` of the letter `name` files under.
    package func letterIndex(of name: String) -> Int {
        guard let first = name.trimmingCharacters(in: .whitespaces).first else { return letters.count - 1 }
        let upper = Character(String(first).uppercased().first.map(String.init) ?? String(first))
        if let own = ownLetters[upper] { return own }
        let base = TextFolding.fold(String(upper)).uppercased()
        if base.count == 1, let scalar = base.unicodeScalars.first, scalar.isASCII, ("A"..."Z").contains(base) {
            return Int(scalar.value) - Int(UnicodeScalar(UInt8(ascii: "A")).value)
        }
        if hasKana, let scalar = first.unicodeScalars.first, let row = Self.kanaRow(of: scalar) {
            return Self.latin.count + ownLetters.count + row
        }
        return letters.count - 1
    }

    /// The kana row of a hiragana or katakana letter (katakana sit 0x60 above their hiragana).
    private static func kanaRow(of scalar: UnicodeScalar) -> Int? {
        var value = scalar.value
        if (0x30A1...0x30F6).contains(value) { value -= 0x60 }
        guard (0x3041...0x3096).contains(value) else { return nil }
        if value >= 0x3094 { return value == 0x3094 ? 0 : 1 }  // ゔ under あ; small ゕ ゖ under か
        return kanaRows.lastIndex { $0.first <= value } ?? 0
    }
}
