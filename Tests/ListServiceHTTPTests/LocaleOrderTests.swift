import Basics
import Foundation
import HTTPLite
import ListServiceHTTP
import Testing

@testable import ListService

/// Live lists sorted by name in each locale's own order: random renames, inserts and deletes,
/// with live lists in five locales (the whole list grouped by initial, and a window inside
/// it), each equal after every write to a fresh page and to the brute-force reference
/// (`CollationReference`) over the items as they now are.
@Suite struct LocaleOrderTests {
    static let now = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()

    @Test func liveListsByName_keepEachLocalesOrder_throughRandomWrites() throws {
        let state = CollectionState<Users>(items: CollationReference.randomUsers(count: 120, seed: 5))
        let service = CollectionService(stores: [state], live: LiveListTests.eventPerBatch, clock: { Self.now })
        let router = ServiceRoutes.makeHandler(service: service)
        var random = SplitMix64(seed: 62)
        var watched: [(locale: String, query: [(String, String)], recorder: LiveRecorder)] = []
        for locale in CollationReference.locales {
            for query in [
                [("sort", "name"), ("group", "initial"), ("limit", "500"), ("locale", locale)],
                [("sort", "name"), ("order", "desc"), ("limit", "6"), ("offset", "30"), ("locale", locale)],
            ] {
                watched.append((locale, query, try LiveListTests.watch("users", query, service: service)))
            }
        }
        for step in 0..<60 {
            let ids = state.allItems.map(\.id)
            let name = CollationReference.randomName(using: &random)
            switch random.below(4) {
            case 0: _ = router.send(.post, "/users", json: #"{"name": "\#(name)"}"#)
            case 1: _ = router.send(.delete, "/users/\(random.pick(ids))")
            default: _ = router.send(.patch, "/users/\(random.pick(ids))", json: #"{"name": "\#(name)"}"#)
            }
            LiveListTests.settle(service)
            for (locale, query, recorder) in watched {
                var replica = LiveWindowReplica()
                for event in recorder.events { replica.apply(event) }
                let fresh = router.send(.get, "/users", query: query).bodyJSON
                #expect(replica.problems.isEmpty, "step \(step) \(query): \(replica.problems)")
                #expect((replica.items as NSArray).isEqual(to: fresh["items"] as? [[String: Any]] ?? []), "step \(step) \(query)")
                #expect(
                    LiveWindowReplica.derived(replica.sections) == LiveWindowReplica.derived(fresh["sections"] as? [[String: Any]] ?? []),
                    "step \(step) \(query): sections")
                guard query.contains(where: { $0 == ("group", "initial") }) else { continue }
                let expected = CollationReference.order(state.allItems, locale: locale)
                #expect(replica.items.map { $0["id"] as? String ?? "" } == expected.map(\.id), "step \(step) \(locale): the order")
                let letters = try #require(CollationReference.expectedLetters[locale])
                #expect(
                    replica.items.map { $0["sectionKey"] as? String ?? "" }
                        == expected.map { CollationReference.letter(of: $0.name, letters: letters, locale: locale) },
                    "step \(step) \(locale): each row's letter")
            }
        }
        let deltas = watched.reduce(0) { $0 + $1.recorder.events.filter { $0.name == "delta" }.count }
        #expect(deltas > 80, "the writes reached the windows as deltas, not only resets")
    }
}
