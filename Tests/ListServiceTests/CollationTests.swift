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
    static let locales = CollationReference.locales

    static func engine(_ users: [User]) -> CollectionEngine<Users> {
        CollectionEngine(
            state: CollectionState<Users>(items: users), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { Date() })
    }

    @Test(arguments: locales) func aListSortedByName_followsTheLocalesCollation_andItsIndex(locale: String) throws {
        let users = CollationReference.randomUsers(count: 400, seed: 62)
        let engine = Self.engine(users)
        let letters = try #require(CollationReference.expectedLetters[locale])
        #expect(AlphabeticIndex.of(locale).letters == letters)
        let expected = CollationReference.order(users, locale: locale)

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
            let letter = CollationReference.letter(of: user.name, letters: letters, locale: locale)
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
            let reference = order == "asc" ? expected : CollationReference.order(users, locale: locale, descending: true)
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

    /// An export of a list sorted by name is in the locale's order too.
    @Test(arguments: CollationReference.locales) func anExport_isInTheLocalesOrder(locale: String) throws {
        let users = CollationReference.randomUsers(count: 150, seed: 9)
        let request = ExportTests.request("sort=name&locale=\(locale)&format=ndjson")
        let criteria = try ListCriteria<Users>(request, now: Date(), purpose: .export)
        let file = ExportTests.drain(Self.engine(users).export(criteria, format: .ndjson))
        let ids = String(decoding: file, as: UTF8.self).split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String ?? ""
        }
        #expect(ids == CollationReference.order(users, locale: locale).map(\.id))
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

        let engine = Self.engine(CollationReference.randomUsers(count: 50, seed: 3))
        let swedish = try ListSectionsTests.page("sort=name&limit=10&locale=sv-SE", engine)
        let cursor = try #require(swedish["nextCursor"] as? String)
        #expect {
            _ = try ListSectionsTests.page("sort=name&limit=10&locale=en-US&cursor=\(cursor)", engine)
        } throws: { ($0 as? ListServiceError)?.parameter == "cursor" }
    }
}
