import Basics
import Foundation
import Testing

@testable import ListService

@Suite struct EngineTests {
    @Test func lruCache_evictsTheLeastRecentlyUsed() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache["a"] = 1
        cache["b"] = 2
        _ = cache["a"]
        cache["c"] = 3
        #expect(cache["b"] == nil)
        #expect(cache["a"] == 1 && cache["c"] == 3)
        #expect(cache.count == 2)
        cache.remove("a")
        cache["d"] = 4
        #expect(cache.count == 2 && cache.oldestEntry?.key == "c")
    }

    @Test func sessionStore_capsAndExpires() {
        let store = SessionStore(capacity: 2, timeToLive: .seconds(60))
        let start = Date(timeIntervalSince1970: 0)
        let a = store.session(id: "a", adoptsUnknownID: true, now: start)
        #expect(a.isNew)
        #expect(store.session(id: "a", adoptsUnknownID: true, now: start + 30).session === a.session)
        _ = store.session(id: "b", adoptsUnknownID: true, now: start + 31)
        _ = store.session(id: "c", adoptsUnknownID: true, now: start + 32)
        #expect(store.count == 2)
        #expect(store.session(id: "a", adoptsUnknownID: true, now: start + 33).isNew, "evicted as least recently used")
        #expect(store.session(id: "c", adoptsUnknownID: true, now: start + 200).isNew, "expired after its TTL")
    }

    @Test func sessionStore_doesNotAdoptUnknownCookieIDs() {
        let store = SessionStore()
        let (session, isNew) = store.session(id: "chosen-by-client", adoptsUnknownID: false, now: Date())
        #expect(isNew)
        #expect(session.id != "chosen-by-client")
        #expect(session.id.count == 32)
        #expect(SessionStore.isValidID("abc-DEF_09") && !SessionStore.isValidID("a b") && !SessionStore.isValidID(""))
    }

    /// A field whose first values are mostly distinct (titles) keeps no table of value ids,
    /// one whose values repeat (names) keeps it and each value's items; both find what each
    /// item's text holds, also where repeats follow distinct values.
    @Test func searchIndex_distinctAndRepeatedFields_agreeWithContains() {
        let probe = SearchIndex.Field.distinctnessProbe
        let titles = (0..<(2 * probe)).map { "order #\($0 < probe + 10 ? $0 : $0 % 7)" }
        let names = (0..<(2 * probe)).map { ["ann lee", "bob", "zoe quinn"][$0 % 3] }
        let index = SearchIndex(fields: [.init(values: titles), .init(values: names)])
        #expect(index.fields[0].valueIDs == nil && index.fields[0].itemsOfValue == nil)
        let itemsOfName = names[0..<3].map { name in names.count { $0 == name } }
        #expect(index.fields[1].valueIDs != nil && index.fields[1].itemsOfValue?.map(\.count) == itemsOfName)
        for query in ["#1", "#4100", "order #6", "bob", "e q", "zz"] {
            #expect(
                index.matches(query, among: Array(repeating: true, count: titles.count))
                    == zip(titles, names).map { $0.contains(query) || $1.contains(query) }, "\(query)")
        }
    }

    @Test func searchIndex_matchesAnyFieldOnce() {
        var index = SearchIndex(fields: [
            .init(values: ["John Smith", "Ann Lee", "john smith", "Bob"]),
            .init(values: ["Order #1", "Order #2 for Jöhn", "Order #3", "Order #4"]),
        ])
        #expect(index.matches("john", among: [true, true, false, true]) == [true, true, false, false], "item 2 was already filtered out")
        #expect(index.matches("smithorder") == [false, false, false, false], "no match across fields")
        index.set(item: 1, to: nil)
        #expect(index.matches("order") == [true, false, true, true], "every title holds it; a deleted item matches nothing")
        index.set(item: 3, to: ["zoë quinn", "order #4"])
        #expect(index.matches("ë qu") == [false, false, false, true], "a value set later is found, its letter pairs included")
    }

    /// Thousands of distinct values, hits dense and sparse: the same answer as asking each
    /// value (the search gallops from hit to hit through the arena's offsets).
    @Test(arguments: [1, 2, 3]) func searchIndex_agreesWithContains_overManyValues(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let letters = Array("abcdez #0123")
        let values = (0..<5_000).map { _ in
            String((0..<Int(random.next() % 12 + 1)).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
        }
        let index = SearchIndex(fields: [.init(values: values)])
        for query in ["a", "z", "ab", "#0", "e 1", "dd", "abcde", "0123#"] {
            #expect(
                index.matches(query, among: Array(repeating: true, count: values.count)) == values.map { $0.contains(query) }, "\(query)")
        }
    }

    /// Edits that change an item's text leave its old value in the arena; once the arena is
    /// twice its live bytes the values no item holds are dropped (a server whose names and
    /// titles are edited for weeks must not grow without end), and every query still finds
    /// exactly the items whose current text holds it: values shared by several items, items
    /// deleted, appended and edited back to an earlier text.
    @Test(arguments: [1, 2]) func searchIndex_dropsValuesNoItemHolds_andStillAgrees(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let names = ["ann lee", "bob", "zoe quinn", "emile", "b"]  // folded already, as `set` takes them
        func text(_ step: Int) -> [String] {
            let name = random.below(2) == 0 ? random.pick(names) : "name \(random.below(step + 1))"
            return [name, "order #\(step)" + String(repeating: "x", count: random.below(40))]
        }
        var texts: [[String]?] = (0..<300).map { text($0) }
        var index = SearchIndex(fields: [.init(values: texts.map { $0?[0] ?? "" }), .init(values: texts.map { $0?[1] ?? "" })])
        for step in 300..<20_000 {
            let item = random.below(texts.count + 1)
            let value = random.below(20) == 0 && item < texts.count ? nil : text(step)
            index.set(item: item, to: value)
            if item == texts.count { texts.append(value) } else { texts[item] = value }
            guard step % 25 == 0 else { continue }
            for (field, values) in zip(index.fields, [Set(texts.compactMap { $0?[0] }), Set(texts.compactMap { $0?[1] })]) {
                let live = values.reduce(0) { $0 + $1.utf8.count + 1 }
                #expect(field.arena.count <= max(SearchIndex.Field.compactionFloor, 2 * live, 4 * texts.count) + 100, "step \(step)")
            }
            guard step % 1_000 == 0 else { continue }
            for query in ["name 1", "order #1", "ann", "x", "#19", "b", "e q", "zz"] {
                #expect(
                    index.matches(query, among: Array(repeating: true, count: texts.count))
                        == texts.map { $0.map { $0[0].contains(query) || $0[1].contains(query) } ?? false }, "\(query) at \(step)")
            }
        }
    }

    @Test func cursor_roundTripsAndRejectsForgeries() {
        let cursor = PageCursor(fingerprint: "abc", sortValue: "José García", id: "o-1")
        #expect(PageCursor(encoded: cursor.encoded) == cursor)
        #expect(PageCursor(encoded: "not-base64!") == nil)
        #expect(PageCursor(encoded: "") == nil)
    }

    @Test func sectionCursor_roundTrips_andIsNoRowCursor() {
        let cursor = SectionCursor(key: "2026-11-19")
        #expect(SectionCursor(encoded: cursor.encoded) == cursor)
        #expect(cursor.encoded.count == 15)
        #expect(SectionCursor(encoded: SectionCursor(key: "Ä~2").encoded)?.key == "Ä~2")
        #expect(SectionCursor(encoded: "not-base64!") == nil)
        #expect(SectionCursor(encoded: "") == nil)
        let row = PageCursor(fingerprint: "c71ba9665140ae9f", sortValue: "n1795133580000", id: "o-057802")
        #expect(SectionCursor(encoded: row.encoded) == nil)
        #expect(PageCursor(encoded: cursor.encoded) == nil)
    }

}

@Suite struct SlotOrderTests {
    @Test(arguments: [1, 2, 3])
    func randomInsertsAndRemoves_matchASortedArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var model = (0..<40).map { Int32($0 * 10) }
        var order = SlotOrder(model, maxChunk: 4)
        for _ in 0..<2000 {
            if random.below(2) == 0 || model.isEmpty {
                let value = Int32(random.below(1000))
                let point = order.partitionPoint { $0 > value }
                order.insert(value, at: point)
                model.insert(value, at: model.firstIndex { $0 > value } ?? model.count)
            } else {
                let value = random.pick(model)
                let point = order.partitionPoint { $0 > value }
                let removed = order.remove(value, before: point)
                #expect(removed)
                model.remove(at: model.lastIndex(of: value) ?? 0)
            }
            #expect(order.count == model.count)
        }
        #expect(Array(order) == model)
        let upper = min(17, model.count), window = min(5, upper)..<upper
        #expect(order.slots(in: window) == Array(model[window]))
        #expect(order.index(of: order.partitionPoint { $0 > 500 }) == (model.firstIndex { $0 > 500 } ?? model.count))
    }

    /// The walk of a cold query: the slots set in a bitmap, in the order's order, however the
    /// matches fall across chunks (none, all, every other, random; slots past the bitmap's end
    /// read clear), and the result is an order that takes inserts as any other.
    @Test(arguments: [1, 2, 3])
    func filteredByBits_keepsTheSetSlotsInOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let slots = (0..<300).map { Int32($0) }.shuffled(using: &random)
        let order = SlotOrder(slots, maxChunk: 6)
        for pattern in 0..<4 {
            var bits = SlotBits(count: 280)
            for slot in 0..<280 where pattern == 1 || pattern == 2 && slot % 2 == 0 || pattern == 3 && random.below(3) == 0 {
                bits[slot] = true
            }
            var filtered = order.filtered(by: bits)
            let expected = slots.filter { bits[Int($0)] }
            #expect(Array(filtered) == expected)
            #expect(filtered.count == expected.count)
            filtered.insert(999, at: filtered.partitionPoint { _ in false })
            #expect(Array(filtered) == expected + [999])
        }
    }

    /// An order that marks its stretches of equal keys (here a slot's key is its value / 10,
    /// ties by value ascending) keeps the marks through random inserts and removes, so that
    /// read backwards stretch by stretch it is the descending order, ties still ascending,
    /// whole or kept by a bitmap.
    @Test(arguments: [1, 2, 3])
    func marksOfEqualKeys_followChanges_andReverseIntoTheOtherDirection(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let key = { (slot: Int32) in slot / 10 }
        var model = (0..<40).map { Int32($0 * 3) }
        var order = SlotOrder(
            model.indices.map { $0 > 0 && key(model[$0]) == key(model[$0 - 1]) ? model[$0] | SlotOrder.continuesRun : model[$0] },
            maxChunk: 4)
        let descending = { (slots: [Int32]) in slots.sorted { key($0) != key($1) ? key($0) > key($1) : $0 < $1 } }
        for step in 0..<1500 {
            if random.below(2) == 0 || model.isEmpty {
                let value = Int32(random.below(300))
                guard !model.contains(value) else { continue }
                order.insert(value, at: order.partitionPoint { $0 > value }) { key($0) == key(value) }
                model.insert(value, at: model.firstIndex { $0 > value } ?? model.count)
            } else {
                let value = random.pick(model)
                let removed = order.remove(value, before: order.partitionPoint { $0 > value })
                #expect(removed)
                model.removeAll { $0 == value }
            }
            guard step % 50 == 0 else { continue }
            #expect(Array(order) == model)
            #expect(Array(order.reversedRuns()) == descending(model), "step \(step)")
            var bits = SlotBits(count: 300)
            for slot in 0..<300 where random.below(3) == 0 { bits[slot] = true }
            #expect(Array(order.reversedRuns(keeping: bits)) == descending(model.filter { bits[Int($0)] }), "step \(step)")
            #expect(Array(order.reversedRuns().reversedRuns()) == model)
        }
    }
}

@Suite struct CollectionIndexesTests {
    /// Ids shuffled, or ascending with the slots (ties then break by slot), few distinct keys:
    /// every order built at load (in parallel, each field's kept in one direction, the other
    /// read back from it) is a plain sort by key, ties by id ascending.
    @Test(arguments: [1, 2], [false, true]) func sortOrdersBuiltAtLoad_equalAPlainSort(seed: UInt64, idsAscend: Bool) {
        var random = SplitMix64(seed: seed)
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z")!
        let made = (0..<3000).map { number in
            Order.make(
                id: idsAscend ? String(format: "o-%06d", number) : "o-\(random.below(1_000_000))-\(number)",
                customerName: random.pick(["Ann", "Bob", "Zoë", "Émile", "ann"]), total: Money(cents: Int64(random.below(20))),
                date: anchor.addingTimeInterval(Double(random.below(5)) * 3600), status: random.pick(OrderStatus.allCases))
        }
        let orders = idsAscend ? made : made.shuffled(using: &random)
        let state = CollectionState<Orders>(items: orders)
        for field in OrderSortField.allCases {
            for direction in SortDirection.allCases {
                let built = state.evaluate(ListDefinition(view: .all, scope: .init(currentMonth: nil), sort: field, direction: direction))
                let expected = orders.indices.sorted { a, b in
                    let keyA = Orders.sortKey(of: orders[a], by: field, in: .root),
                        keyB = Orders.sortKey(of: orders[b], by: field, in: .root)
                    if keyA != keyB { return direction == .asc ? keyA < keyB : keyB < keyA }
                    return orders[a].id < orders[b].id
                }
                #expect(Array(built.slots) == expected.map(Int32.init), "\(field) \(direction)")
            }
        }
        let search = SearchIndex(fields: [.init(values: orders.map(\.customerName))])
        #expect(search.matches("emile", among: Array(repeating: true, count: orders.count)) == orders.map { $0.customerName == "Émile" })
    }

    /// Writes that add, change and delete items with few distinct keys keep each field's
    /// stored orders right in both directions, the root one and those of the collations asked
    /// for before the writes (Swedish, Japanese): every list, whole, filtered or searched,
    /// equals the same list of a state built afresh from the items.
    @Test(arguments: [1, 2]) func sortOrdersAfterWrites_equalThoseBuiltAfresh(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z")!
        let make = { (id: String) in
            Order.make(
                id: id, customerName: random.pick(["Ann", "Bob", "Zoë", "Émile", "ann", "Åsa", "Örjan", "Zander", "Ärla", "さくら"]),
                total: Money(cents: Int64(random.below(6))), date: anchor.addingTimeInterval(Double(random.below(4)) * 3600),
                status: random.pick(OrderStatus.allCases))
        }
        let state = CollectionState<Orders>(items: (0..<400).map { make("o-\($0)") })
        let lists = OrderSortField.allCases.flatMap { field in
            SortDirection.allCases.flatMap { direction in
                [(OrderFilter.all, "", "en"), (.pending, "", "en"), (.all, "ann", "en"), (.all, "", "sv"), (.pending, "", "ja")].map {
                    view, search, locale in
                    ListDefinition<Orders>(
                        view: view, scope: .init(currentMonth: nil), foldedSearch: search, sort: field, direction: direction,
                        collation: Collation.of(locale))
                }
            }
        }
        for list in lists { _ = state.evaluate(list) }
        for step in 0..<600 {
            let existing = state.allItems
            switch random.below(3) {
            case 0 where !existing.isEmpty: _ = state.apply([.delete(id: random.pick(existing).id)])
            case 1 where !existing.isEmpty: _ = state.apply([.upsert(make(random.pick(existing).id))])
            default: _ = state.apply([.upsert(make("o-n\(step)"))])
            }
        }
        let fresh = CollectionState<Orders>(items: state.allItems)
        let ids = { (state: CollectionState<Orders>) in
            lists.map { list in state.withItemLookup { item in state.evaluate(list).slots.compactMap { item($0)?.id } } }
        }
        #expect(ids(state) == ids(fresh))
    }
}

@Suite struct ViewMembersTests {
    /// The members of views queried before changes are kept current by the changes: a query
    /// afterwards equals one over a state built from the same items.
    @Test(arguments: [1, 2, 3]) func cachedViewMembers_followChanges(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z")!
        let state = CollectionState<Orders>(items: DefaultOrders.make(count: 500, anchor: anchor))
        let month = CalendarDays.month(containing: anchor, in: "Europe/Berlin")
        let queries: [(OrderFilter, Orders.Scope, String)] = OrderFilter.allCases.flatMap { filter in
            [
                (filter, .init(currentMonth: filter == .currentMonth ? month : nil), ""),
                (filter, .init(currentMonth: filter == .currentMonth ? month : nil), "an"),
            ]
        }
        func answers(_ state: CollectionState<Orders>) -> [[Int32]] {
            queries.map {
                Array(state.evaluate(ListDefinition(view: $0.0, scope: $0.1, foldedSearch: $0.2, sort: .date, direction: .desc)).slots)
            }
        }
        _ = answers(state)  // caches every view's members
        for step in 0..<300 {
            let items = state.allItems
            var order = random.pick(items)
            switch random.below(4) {
            case 0: _ = state.apply([.delete(id: order.id)])
            case 1:
                order.id = "o-new-\(step)"
                order.date = anchor.addingTimeInterval(-Double(random.below(60 * 86_400)))
                _ = state.apply([.upsert(order)])
            default:
                order.status = random.pick(OrderStatus.allCases)
                order.total = Money(cents: Int64(random.below(300_000)))
                _ = state.apply([.upsert(order)])
            }
        }
        let fresh = CollectionState<Orders>(items: state.allItems)
        let ids = { (state: CollectionState<Orders>, answers: [[Int32]]) in
            state.withItemLookup { item in answers.map { $0.compactMap { item($0)?.id } } }
        }
        #expect(ids(state, answers(state)) == ids(fresh, answers(fresh)))
    }
}

extension SearchIndex {
    /// Which of the items set in `among` (four, all set, by default) match `query`.
    fileprivate func matches(_ query: String, among: [Bool] = [true, true, true, true]) -> [Bool] {
        var bits = SlotBits(count: among.count)
        for (slot, isSet) in among.enumerated() where isSet { bits[slot] = true }
        keepMatches(of: query, in: &bits)
        return among.indices.map { bits[$0] }
    }
}

@Suite struct SlotBitsTests {
    @Test(arguments: [0, 1, 63, 64, 65, 200]) func setAndClear_countAndKeep(count: Int) {
        var bits = SlotBits(count: count, set: true)
        #expect(bits.setCount == count)
        #expect(!bits[count] && !bits[count + 1000], "past the end reads clear")
        var thirds = SlotBits(count: count)
        for slot in stride(from: 0, to: count, by: 3) { thirds[slot] = true }
        var visited = 0
        bits.forEachWord { index, word in visited += word.nonzeroBitCount }
        #expect(visited == count)
        bits.formIntersection(thirds)
        #expect(bits.setCount == (count + 2) / 3)
        #expect((0..<count).allSatisfy { bits[$0] == ($0 % 3 == 0) })
        bits[count + 70] = true
        #expect(bits[count + 70] && bits.setCount == (count + 2) / 3 + 1, "setting past the end grows")
        bits[count + 70] = false
        #expect(!bits[count + 70])
    }
}

@Suite struct SearchPostingsTests {
    /// A field of distinct values (titles) keeps no table of them: an item set again to its own
    /// text keeps its value (the arena does not grow with every write), a changed or added
    /// item is found by its new text only, and a deleted one by none.
    @Test func distinctValues_keepTheirValue_whenSetToTheSameText() {
        var titles = (0..<64).map { "order #\(100_000 + $0)" }
        var search = SearchIndex(fields: [.init(values: titles)])
        let arenaBytes = search.fields[0].arena.count
        for item in titles.indices { search.set(item: item, to: [titles[item]]) }
        #expect(search.fields[0].arena.count == arenaBytes, "the same texts again add nothing")
        titles[5] = "order #999999"
        search.set(item: 5, to: [titles[5]])
        titles.append("order #100064")
        search.set(item: 64, to: [titles[64]])
        search.set(item: 7, to: nil)
        for query in ["999", "100005", "100064", "100007", "order"] {
            let expected = titles.indices.map { $0 != 7 && titles[$0].contains(query) }
            #expect(search.matches(query, among: Array(repeating: true, count: titles.count)) == expected, "\(query)")
        }
    }

    /// A field whose values repeat keeps each value's items, and a query matching few values
    /// visits only those; after random changes and deletions, every query (few hits, many,
    /// none) among any members equals testing each item's text.
    @Test(arguments: [1, 2, 3]) func repeatedValues_matchAsTestingEachItem(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let names = ["ana", "bo", "carla", "dan", "eve", "fran", "gus", "hana", "ian", "joan"]
        var texts: [String?] = (0..<400).map { _ in random.pick(names) }
        var search = SearchIndex(fields: [.init(values: texts.map { $0 ?? "" })])
        for _ in 0..<300 {
            let item = random.below(texts.count + 1)
            let text: String? = random.below(5) == 0 ? nil : random.pick(names + ["zoe", "ann"])
            if item == texts.count { texts.append(text) } else { texts[item] = text }
            search.set(item: item, to: text.map { [$0] })
        }
        for query in ["an", "ana", "o", "zoe", "x", "a"] {
            let among = texts.indices.map { _ in random.below(3) != 0 }
            let expected = texts.indices.map { among[$0] && (texts[$0]?.contains(query) ?? false) }
            #expect(search.matches(query, among: among) == expected, "\(query)")
        }
    }
}
