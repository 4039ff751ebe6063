import Basics
import Foundation
import Testing

@testable import ListService

/// Names in each locale's own order, against a brute-force reference, in Swedish, German,
/// Spanish, Finnish and Japanese: random names sorted one pair at a time by their collation
/// keys, each filed under the last index letter that Foundation's collation (the ICU inside
/// Foundation, not the system ICU the service links) puts at or before it; and every two
/// neighbours of the served order in the order Foundation's collation gives them. The whole
/// list, its pages by cursor both ways, `around`, each row's section and the sections' order.
/// (Foundation's `compare(_:options:range:locale:)` cannot sort a list alone: it is not
/// transitive, as in Spanish "Anåüm" < "Änñwøm" < "Añ" but "Anåüm" > "Añ".)
@Suite struct CollationTests {
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

    /// Names that meet where locales differ: letters of their own (Å Ä Ö Ñ), letters filed
    /// with another (Ä with A in German, Ü with Y in Swedish, Ø with Ö), v and w, kana (voiced
    /// and small ones, katakana), a kanji, Greek, a digit; then random lowercase letters.
    static func randomUsers(count: Int, seed: UInt64) -> [User] {
        var random = SplitMix64(seed: seed)
        let starts = [
            "A", "a", "Å", "å", "Ä", "Ö", "ö", "Ø", "Æ", "O", "Ñ", "ñ", "N", "n", "U", "Ü", "Y", "Z", "z", "É", "E", "V", "W", "C",
            "Ch", "Ll", "さ", "サ", "が", "ゆ", "ん", "あ", "カ", "山", "Σ", "7",
        ]
        let letters = Array("abcdefghijklmnopqrstuvwxyzåäöüñéø").map(String.init)
        return (0..<count).map { number in
            let name = random.pick(starts) + (0..<(1 + random.below(6))).map { _ in random.pick(letters) }.joined()
            return User(id: "u-\(String(zeroPadded: number + 1, width: 6))", name: name, taps: random.below(100))
        }
    }

    /// The reference order: names that start with no letter last (under "#"), then by the
    /// locale's collation key, then exactly, then by id (ascending in either direction).
    static func referenceOrder(_ users: [User], locale: String, descending: Bool = false) -> [User] {
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
    static func referenceLetter(of name: String, letters: [String], locale: String) -> String {
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

    static func engine(_ users: [User]) -> CollectionEngine<Users> {
        CollectionEngine(
            state: CollectionState<Users>(items: users), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { Date() })
    }

    @Test(arguments: locales) func aListSortedByName_followsTheLocalesCollation_andItsIndex(locale: String) throws {
        let users = Self.randomUsers(count: 400, seed: 62)
        let engine = Self.engine(users)
        let letters = try #require(Self.expectedLetters[locale])
        #expect(AlphabeticIndex.of(locale).letters == letters)
        let expected = Self.referenceOrder(users, locale: locale)

        let whole = try ListSectionsTests.page("sort=name&group=initial&limit=500&locale=\(locale)", engine)
        let rows = try #require(whole["items"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String ?? "" } == expected.map(\.id), "\(locale): the order of names")
        let foundationLocale = Locale(identifier: locale)
        for (a, b) in zip(expected, expected.dropFirst()) where a.name.first?.isLetter == b.name.first?.isLetter {
            #expect(
                a.name.compare(b.name, options: [], range: nil, locale: foundationLocale) != .orderedDescending,
                "\(locale): \(a.name) before \(b.name)")
        }
        for (row, user) in zip(rows, expected) {
            let letter = Self.referenceLetter(of: user.name, letters: letters, locale: locale)
            #expect(row["sectionKey"] as? String == letter, "\(locale): \(user.name) files under \(letter)")
        }
        let sections = ListSectionsTests.served(try ListSectionsTests.sections(of: whole))
        let sectionLetters = try sections.map { section in try #require(letters.firstIndex(of: section.key), "\(section.key)") }
        #expect(
            sectionLetters == sectionLetters.sorted() && Set(sectionLetters).count == sections.count,
            "\(locale): each letter once, in order")
        #expect(sections.map(\.count).reduce(0, +) == users.count)

        // Page by page with cursors, descending too: the same order.
        for order in ["asc", "desc"] {
            var (seen, cursor) = ([String](), "")
            repeat {
                let page = try ListSectionsTests.page("sort=name&order=\(order)&limit=37&locale=\(locale)&cursor=\(cursor)", engine)
                seen += (page["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" }
                cursor = page["nextCursor"] as? String ?? ""
            } while !cursor.isEmpty && seen.count <= users.count
            let reference = order == "asc" ? expected : Self.referenceOrder(users, locale: locale, descending: true)
            #expect(seen == reference.map(\.id), "\(locale) \(order): pages by cursor")
        }

        // A page around an item centres on it where it sits in this locale's order.
        var random = SplitMix64(seed: 7)
        for _ in 0..<8 {
            let rank = random.below(users.count)
            let page = try ListSectionsTests.page("sort=name&around=\(expected[rank].id)&limit=9&locale=\(locale)", engine)
            let first = max(0, min(rank - 4, users.count - 9))
            #expect(page["index"] as? Int == first, "\(locale): around rank \(rank)")
            #expect((page["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" } == expected[first..<(first + 9)].map(\.id))
        }
    }

    /// Where the locales differ, each has its own order (the reference's, spelled out).
    @Test func swedishSpanishAndGerman_differWhereTheirAlphabetsDo() throws {
        let names = ["Zander", "Åsa", "Ärla", "Östen", "Anna", "Nora", "Ñandú", "Oscar", "Ühler", "Yngve"]
        let users = names.enumerated().map { User(id: "u-\(String(zeroPadded: $0.offset + 1, width: 6))", name: $0.element, taps: 0) }
        let engine = Self.engine(users)
        func served(_ locale: String) throws -> [String] {
            let page = try ListSectionsTests.page("sort=name&group=initial&limit=50&locale=\(locale)", engine)
            return (page["items"] as? [[String: Any]] ?? []).map { "\($0["name"] as? String ?? "")/\($0["sectionKey"] as? String ?? "")" }
        }
        #expect(
            try served("sv-SE") == [
                "Anna/A", "Ñandú/N", "Nora/N", "Oscar/O", "Ühler/Y", "Yngve/Y", "Zander/Z", "Åsa/Å", "Ärla/Ä", "Östen/Ö",
            ])
        #expect(
            try served("de-DE") == [
                "Anna/A", "Ärla/A", "Åsa/A", "Ñandú/N", "Nora/N", "Oscar/O", "Östen/O", "Ühler/U", "Yngve/Y", "Zander/Z",
            ])
        #expect(
            try served("es-ES") == [
                "Anna/A", "Ärla/A", "Åsa/A", "Nora/N", "Ñandú/Ñ", "Oscar/O", "Östen/O", "Ühler/U", "Yngve/Y", "Zander/Z",
            ])
    }

    /// Locales that collate alike share one collation (and so one presorted order and one
    /// list); a sort by numbers is one list in every locale; a cursor of a Swedish list by
    /// name fits no English one.
    @Test func localesThatCollateAlike_shareOneOrder_andCursorsKeepToTheirs() throws {
        #expect(Collation.of("en-US") === Collation.of("de-DE") && Collation.of("fr-FR") === Collation.root)
        #expect(Collation.of("sv-SE") === Collation.of("sv") && Collation.of("sv-SE") != Collation.of("fi-FI"))
        #expect(Collation.of("nb-NO") === Collation.of("nn-NO"))
        let now = Date()
        let byTaps = try ["en-US", "sv-SE"].map { try ListCountsTests.criteria("sort=taps&locale=\($0)", now: now, Users.self) }
        #expect(byTaps[0].definition == byTaps[1].definition && byTaps[0].fingerprint == byTaps[1].fingerprint)
        let byName = try ["en-US", "sv-SE"].map { try ListCountsTests.criteria("sort=name&locale=\($0)", now: now, Users.self) }
        #expect(byName[0].definition != byName[1].definition && byName[0].fingerprint != byName[1].fingerprint)

        let engine = Self.engine(Self.randomUsers(count: 50, seed: 3))
        let swedish = try ListSectionsTests.page("sort=name&limit=10&locale=sv-SE", engine)
        let cursor = try #require(swedish["nextCursor"] as? String)
        #expect {
            _ = try ListSectionsTests.page("sort=name&limit=10&locale=en-US&cursor=\(cursor)", engine)
        } throws: { ($0 as? ListServiceError)?.parameter == "cursor" }
    }
}
