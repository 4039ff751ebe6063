import Basics
import Foundation
import Testing

@testable import ListService

/// A list's fingerprint, which every cursor carries, stays what it was from one version to the
/// next, so a cursor a client holds still opens its page: scopes write themselves as reflection
/// wrote them (reflection itself cost a cold page 5%).
@Suite struct ListFingerprintTests {
    static let month = Date(timeIntervalSince1970: 1_793_491_200)..<Date(timeIntervalSince1970: 1_796_083_200)

    @Test func ordersScopes_writeThemselvesAsReflectionDid() {
        struct Scope { let currentMonth: Range<Date>? }  // Orders.Scope's name and field
        #expect(String(describing: Orders.Scope(currentMonth: Self.month)) == String(describing: Scope(currentMonth: Self.month)))
        #expect(String(describing: Orders.Scope(currentMonth: nil)) == String(describing: Scope(currentMonth: nil)))
    }

    @Test func quakesScopes_writeThemselvesAsReflectionDid() {
        struct Scope { let day: Range<Date> }  // Quakes.Scope's name and field
        #expect(String(describing: Quakes.Scope(day: Self.month)) == String(describing: Scope(day: Self.month)))
    }

    /// The search text is trimmed as Foundation's `CharacterSet.whitespaces` trims, without it.
    @Test(arguments: [
        "", "john", "  john ", "\tjohn\t", "jo hn", " \u{00A0}John\u{3000}", "\u{2003}", "\njohn\n", " \u{200B}x\u{200B} ",
        "Zoë\u{2009}", "\u{1680}a\u{205F}", " ",
    ])
    func searchText_isTrimmedAsFoundationTrimsWhitespace(text: String) {
        #expect(ParameterReader.trimmingWhitespace(text) == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func noScope_writesItselfAsReflectionDid() {
        struct NoScope {}
        #expect(String(describing: ListService.NoScope()) == String(describing: NoScope()))
    }

    /// Parts digested one after another, `|` between them, are the digest of the joined text
    /// in 16 zero-padded hex digits, whatever the parts hold (letters beyond ASCII, empty parts).
    @Test func digestOfParts_isTheDigestOfTheJoinedText() {
        var random = SplitMix64(seed: 7)
        let pieces = ["", "orders", "all", "zoë", "Ärla", "さくら", "c-0042", "|", "date@root", "0"]
        for _ in 0..<300 {
            let parts = (0..<7).map { _ in random.pick(pieces) + random.pick(pieces) }
            let joined = String(zeroPadded: ETag.digest(parts.joined(separator: "|").utf8), width: 16, radix: 16)
            #expect(
                ETag.hexDigest(joining: parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]) == joined, "\(parts)")
        }
    }

    /// The fingerprint in the cursors of `/orders?sort=date` issued before this change.
    @Test func theOrdersListsFingerprint_isTheOneIssuedCursorsCarry() throws {
        #expect(try ListCountsTests.criteria("sort=date", now: Date(), Orders.self).fingerprint == "c71ba9665140ae9f")
    }
}
