import Basics
import Foundation

@testable import ListService

/// A brute-force reference for lists sorted by name in a locale: random names where locales
/// differ, their order one pair at a time, and the index letter each files under. Shared by
/// the core's tests and the HTTP tests of live lists and exports (a symbolic link there).
enum CollationReference {
    static let locales = ["sv-SE", "de-DE", "es-ES", "fi-FI", "ja-JP"]

    /// The index letters a reader of each locale expects, "#" last.
    static let expectedLetters: [String: [String]] = {
        let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let nordic = latin + ["Å", "Ä", "Ö", "#"]
        let kana = ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"]
        return [
            "sv-SE": nordic, "fi-FI": nordic, "de-DE": latin + ["#"], "es-ES": latin[..<14] + ["Ñ"] + latin[14...] + ["#"],
            "ja-JP": latin + kana + ["#"],
        ]
    }()

    /// A name that meets others where locales differ: letters of their own (Å Ä Ö Ñ), letters
    /// filed with another (Ä with A in German, Ü with Y in Swedish, Ø with Ö), v and w, kana
    /// (voiced and small ones, katakana), a kanji, Greek, a digit; then lowercase letters.
    static func randomName(using random: inout SplitMix64) -> String {
        let starts = [
            "A", "a", "Å", "å", "Ä", "Ö", "ö", "Ø", "Æ", "O", "Ñ", "ñ", "N", "n", "U", "Ü", "Y", "Z", "z", "É", "E", "V", "W", "C",
            "Ch", "Ll", "さ", "サ", "が", "ゆ", "ん", "あ", "カ", "山", "Σ", "7",
        ]
        let letters = Array("abcdefghijklmnopqrstuvwxyzåäöüñéø").map(String.init)
        return random.pick(starts) + (0..<(1 + random.below(6))).map { _ in random.pick(letters) }.joined()
    }

    static func randomUsers(count: Int, seed: UInt64) -> [User] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { number in
            User(id: "u-\(String(zeroPadded: number + 1, width: 6))", name: randomName(using: &random), taps: random.below(100))
        }
    }

    /// The reference order: names that start with no letter last (under "#"), then by the
    /// locale's collation key, then exactly, then by id (ascending in either direction).
    static func order(_ users: [User], locale: String, descending: Bool = false) -> [User] {
        let collation = Collation.of(locale)
        return users.sorted { a, b in
            let (lastA, lastB) = (a.name.first?.isLetter != true, b.name.first?.isLetter != true)
            let (keyA, keyB) = (collation.key(a.name), collation.key(b.name))
            if lastA != lastB { return descending ? lastA : lastB }
            if keyA != keyB { return descending ? keyB < keyA : keyA < keyB }
            if a.name != b.name { return descending ? b.name < a.name : a.name < b.name }
            return a.id < b.id
        }
    }

    /// The reference letter: the last index letter that collates at or before the name; "#" for
    /// a name that starts in a script without letters in the index. (Each name has two
    /// letters at least, so a letter never ties with it on base letters and loses on case or
    /// accents; Foundation's `diacriticInsensitive` folds Å to A even in Swedish, so it cannot
    /// stand for "base letters".)
    static func letter(of name: String, letters: [String], locale: String) -> String {
        let hasKana = letters.contains("あ")
        guard let first = name.unicodeScalars.first,
            (0x41...0x24F).contains(first.value) && first.properties.isAlphabetic || hasKana && (0x3040...0x30FF).contains(first.value)
        else { return "#" }
        let labels = letters.dropLast()
        let locale = Locale(identifier: locale)
        return labels.last {
            $0.compare(name, options: [], range: nil, locale: locale) != .orderedDescending
        } ?? labels[0]
    }
}
