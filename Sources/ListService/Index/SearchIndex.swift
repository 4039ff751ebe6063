import CSystem
import Glibc

/// Folded search text per field, each distinct value stored once: 100,000 orders have about
/// a thousand distinct customer names, so a query searches those, not 100,000 copies. Values
/// sit in one contiguous arena per field, searched with `memmem`.
package struct SearchIndex: Sendable {
    private(set) var fields: [Field]

    /// One searchable field: its distinct folded values and each item's value.
    struct Field: Sendable {
        /// Values separated by NUL, which a query never holds, so no match spans two values.
        var arena: [UInt8] = []
        /// `offsets[v]` is where value v starts; one extra entry marks the end.
        var offsets: [Int] = [0]
        var valueOfItem: [Int32] = []
        /// Value ids by their bytes, which stay in the arena, so that a repeated value is stored
        /// once. Nil for a field of mostly distinct values (titles), where it would find nothing
        /// and cost 8 MB a million items: there an item whose text did not change keeps its value.
        var valueIDs: ReferenceTable? = ReferenceTable()
        /// One bit per pair of adjacent bytes found in any value: a query holding a pair that
        /// no value holds matches nothing, and the arena is not searched at all (a name query
        /// over order titles, "john" against "order #100001").
        var bytePairs = [UInt64](repeating: 0, count: 65_536 / 64)
        /// The items holding each value, for a field whose values repeat (names: about a
        /// thousand over a million orders), so that a query matching a few values visits only
        /// their items. Nil for a field of mostly distinct values (titles), whose items are
        /// tested one by one as quickly.
        var itemsOfValue: [[Int32]]?
        /// The arena's size when it last held only values some item holds (as built, or just
        /// after `dropUnheldValues`): past twice that, the values edits left behind are dropped.
        private var liveBytes = 0

        /// How many items are read before a field whose values are more than half distinct so
        /// far is taken to be one of distinct values.
        static let distinctnessProbe = 4096

        /// An arena this small is never worth a pass over the items.
        static let compactionFloor = 1 << 16

        init() {}

        /// The field of items whose text is `values`, in item order. ASCII text folds in
        /// place; other text is folded once per distinct value (names repeat, and folding them
        /// takes Foundation).
        init(values: some Collection<String>) {
            var idByText: [String: Int32] = [:]
            valueOfItem.reserveCapacity(values.count)
            for (position, text) in values.enumerated() {
                if position == Self.distinctnessProbe, offsets.count - 1 > position / 2 {
                    // Mostly distinct so far (titles): the value ids table would find nothing
                    // and is dropped now, not after growing to 8 MB a million items, and the
                    // rest gets room at once rather than arrays grown by copies beside the load.
                    valueIDs = nil
                    offsets.reserveCapacity(values.count + 1)
                    arena.reserveCapacity(arena.count / position * values.count * 9 / 8)
                }
                if TextFolding.isASCII(text) {
                    valueOfItem.append(valueID(for: TextFolding.fold(text), current: SearchIndex.noValue))
                } else if let id = idByText[text] {
                    valueOfItem.append(id)
                } else {
                    let id = valueID(for: TextFolding.fold(text), current: SearchIndex.noValue)
                    idByText[text] = id
                    valueOfItem.append(id)
                }
            }
            if valueIDs != nil, (offsets.count - 1) * 8 <= valueOfItem.count {
                // Each list made at its size: grown by appends, they held a third more.
                var counts = [Int](repeating: 0, count: offsets.count - 1)
                for value in valueOfItem { counts[Int(value)] += 1 }
                var items = counts.map { [Int32](reservingCapacity: $0) }
                for (item, value) in valueOfItem.enumerated() { items[Int(value)].append(Int32(item)) }
                itemsOfValue = items
            } else {
                valueIDs = nil
            }
            liveBytes = arena.count
        }

        /// Sets `item`'s value (`noValue`: none); `item == valueOfItem.count` appends.
        mutating func setValue(_ value: Int32, ofItem item: Int) {
            let old = item < valueOfItem.count ? valueOfItem[item] : SearchIndex.noValue
            if item == valueOfItem.count { valueOfItem.append(value) } else { valueOfItem[item] = value }
            // Taken out while changed, so that the lists are changed in place, not copied.
            guard old != value, var items = itemsOfValue.take() else { return }
            if old != SearchIndex.noValue, let index = items[Int(old)].firstIndex(of: Int32(item)) {
                items[Int(old)].swapAt(index, items[Int(old)].count - 1)
                items[Int(old)].removeLast()
            }
            if value != SearchIndex.noValue {
                while items.count <= Int(value) { items.append([]) }
                items[Int(value)].append(Int32(item))
            }
            itemsOfValue = items
        }

        /// Sets the bit of each member (`members`) whose value is one of `matched`'s.
        fileprivate func markHits(among members: SlotBits, memberCount: Int, matched: [Bool], in found: inout SlotBits) {
            if let itemsOfValue {
                let hitCount = matched.indices.dropFirst().reduce(0) { matched[$1] ? $0 + itemsOfValue[$1 - 1].count : $0 }
                if hitCount < memberCount {
                    // Few hits: set the bits of the matched values' items (members or not: the
                    // caller keeps only members).
                    for value in itemsOfValue.indices where matched[value + 1] {
                        for item in itemsOfValue[value] { found[Int(item)] = true }
                    }
                    return
                }
            }
            valueOfItem.withUnsafeBufferPointer { values in
                matched.withUnsafeBufferPointer { matched in
                    members.forEachWord { index, word in
                        // A bit per member, without a branch on whether it matches.
                        var remaining = word, hits: UInt64 = 0
                        while remaining != 0 {
                            let bit = remaining.trailingZeroBitCount, item = index << 6 | bit
                            if item < values.count { hits |= UInt64(matched[Int(values[item]) + 1] ? 1 : 0) &<< UInt64(bit) }
                            remaining &= remaining - 1
                        }
                        found.insert(hits, intoWordAt: index)
                    }
                }
            }
        }

        /// The id of the value `folded`, for an item whose value is `current` (`noValue`: none
        /// yet): a stored value with those bytes, else one added to the arena.
        mutating func valueID(for folded: String, current: Int32) -> Int32 {
            var folded = folded
            return folded.withUTF8 { bytes in
                guard bytes.contains(0) else { return valueID(forBytes: bytes, current: current) }
                let separated = bytes.map { $0 == 0 ? 0x20 : $0 }  // NUL separates values
                return separated.withUnsafeBufferPointer { valueID(forBytes: $0, current: current) }
            }
        }

        private mutating func valueID(forBytes bytes: UnsafeBufferPointer<UInt8>, current: Int32) -> Int32 {
            guard valueIDs != nil else {
                return current != SearchIndex.noValue && value(current, equals: bytes) ? current : append(bytes)
            }
            let hash = Self.hash(bytes)
            if let existing = valueIDs?.find(hash: hash, isKey: { value($0, equals: bytes) }) { return existing }
            let id = append(bytes)
            valueIDs?.insert(id, hash: hash) { Self.hash(ofValue: $0, arena: arena, offsets: offsets) }
            return id
        }

        /// The hash of value `value`'s bytes in `arena` (without the NUL after them).
        private static func hash(ofValue value: Int32, arena: [UInt8], offsets: [Int]) -> Int {
            arena.withUnsafeBufferPointer { hash(UnsafeBufferPointer(rebasing: $0[offsets[Int(value)]..<offsets[Int(value) + 1] - 1])) }
        }

        /// The arena never shrinks by itself: an edit that changes an item's text leaves the
        /// old value behind (a long-running server whose names and titles are edited would grow
        /// without end). Once the arena is past twice what it held when last all live, past four
        /// bytes an item (a pass over the items then drops at least as many bytes as it reads
        /// item ids) and past `compactionFloor`, the values no item holds are dropped.
        mutating func dropUnheldValuesIfWasteful() {
            guard arena.count > max(Self.compactionFloor, 2 * liveBytes, 4 * valueOfItem.count) else { return }
            dropUnheldValues()
            liveBytes = arena.count
        }

        /// Keeps only the values some item holds, in their order, under new ids; the value ids
        /// table, the items of each value and the byte pairs follow.
        private mutating func dropUnheldValues() {
            let valueCount = offsets.count - 1
            var newID = [Int32](repeating: SearchIndex.noValue, count: valueCount)
            for value in valueOfItem where value != SearchIndex.noValue { newID[Int(value)] = 0 }
            var kept: [Int] = []
            for value in 0..<valueCount where newID[value] == 0 {
                newID[value] = Int32(kept.count)
                kept.append(value)
            }
            guard kept.count < valueCount else { return }
            var keptArena: [UInt8] = []
            var keptOffsets = [0]
            keptOffsets.reserveCapacity(kept.count + 1)
            var pairs = [UInt64](repeating: 0, count: bytePairs.count)
            for value in kept {
                let start = offsets[value], end = offsets[value + 1]  // its NUL at end - 1
                keptArena.append(contentsOf: arena[start..<end])
                keptOffsets.append(keptArena.count)
                for index in stride(from: start + 1, to: end - 1, by: 1) { Self.insertPair(arena[index - 1], arena[index], into: &pairs) }
            }
            valueOfItem = valueOfItem.map { $0 == SearchIndex.noValue ? $0 : newID[Int($0)] }
            if let items = itemsOfValue { itemsOfValue = kept.map { $0 < items.count ? items[$0] : [] } }
            (arena, offsets, bytePairs) = (keptArena, keptOffsets, pairs)
            if valueIDs != nil {
                var table = ReferenceTable(capacity: kept.count)
                for id in kept.indices.map(Int32.init) {
                    table.insert(id, hash: Self.hash(ofValue: id, arena: arena, offsets: offsets)) {
                        Self.hash(ofValue: $0, arena: arena, offsets: offsets)
                    }
                }
                valueIDs = table
            }
        }

        /// Adds a value to the arena; its id.
        private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            let start = arena.count
            arena.append(contentsOf: bytes)
            for index in arena.indices.dropFirst(start + 1) { Self.insertPair(arena[index - 1], arena[index], into: &bytePairs) }
            arena.append(0)
            offsets.append(arena.count)
            return Int32(offsets.count - 2)
        }

        private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return hasher.finalize()
        }

        /// Whether value `value`'s bytes (without the NUL after them) are `bytes`.
        private func value(_ value: Int32, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = offsets[Int(value)], end = offsets[Int(value) + 1] - 1
            guard end - start == bytes.count else { return false }
            return arena.withUnsafeBufferPointer { arena in
                guard let stored = arena.baseAddress, let wanted = bytes.baseAddress else { return true }  // both empty
                return memcmp(stored + start, wanted, bytes.count) == 0
            }
        }

        private static func insertPair(_ first: UInt8, _ second: UInt8, into pairs: inout [UInt64]) {
            let bit = Int(first) << 8 | Int(second)
            pairs[bit >> 6] |= 1 << UInt64(bit & 63)
        }

        /// Whether some value may hold `query`: every pair of adjacent bytes in it occurs in a value.
        func mayHold(_ query: [UInt8]) -> Bool {
            query.indices.dropFirst().allSatisfy { index in
                let bit = Int(query[index - 1]) << 8 | Int(query[index])
                return bytePairs[bit >> 6] & (1 << UInt64(bit & 63)) != 0
            }
        }

        /// Which distinct values contain `query`, indexed by value + 1 so that a deleted item's
        /// value (`noValue`, -1) reads false without a branch; nil when none does (then not
        /// even the array is made: a million titles would take a megabyte to say no).
        func matchingValues(_ query: [UInt8]) -> [Bool]? {
            guard mayHold(query) else { return nil }
            var matched = [Bool](repeating: false, count: offsets.count)
            var found = false
            arena.withUnsafeBytes { arenaBytes in
                query.withUnsafeBytes { queryBytes in
                    offsets.withUnsafeBufferPointer { offsets in
                        matched.withUnsafeMutableBufferPointer { matched in
                            guard let base = arenaBytes.baseAddress, let needle = queryBytes.baseAddress else { return }
                            var position = 0
                            var value = 0
                            while position < arenaBytes.count,
                                let hit = csystem_memmem(base + position, arenaBytes.count - position, needle, queryBytes.count)
                            {
                                value = Self.value(containing: base.distance(to: hit), atOrAfter: value, offsets: offsets)
                                matched[value + 1] = true
                                found = true
                                value += 1
                                position = offsets[value]  // one hit per value is enough
                            }
                        }
                    }
                }
            }
            return found ? matched : nil
        }

        /// The value whose bytes hold `byteOffset`, searched from value `first` on: hits come in
        /// order, so the search gallops forward from the last one (a query that hits every
        /// value, "o" over a million titles, finds it at the first step; a rare hit is found in
        /// a few dozen steps, not by walking every value before it).
        private static func value(containing byteOffset: Int, atOrAfter first: Int, offsets: UnsafeBufferPointer<Int>) -> Int {
            let last = offsets.count - 1
            if first + 1 <= last, offsets[first + 1] > byteOffset { return first }  // the hit is in `first` itself
            var low = first, high = first + 1, step = 1  // invariant: offsets[low] <= byteOffset
            while high < last, offsets[high] <= byteOffset {
                low = high
                step *= 2
                high = min(low + step, last)
            }
            // invariant: offsets[low] <= byteOffset < offsets[high]
            while high - low > 1 {
                let middle = (low + high) / 2
                if offsets[middle] <= byteOffset { low = middle } else { high = middle }
            }
            return low
        }
    }

    /// An index of fields built apart (`Field(values:)`, one per searchable field, in order);
    /// with none, the first `set` decides how many there are.
    init(fields: [Field]) {
        self.fields = fields
    }

    /// Marks an item that has no text (a deleted one): it matches no query.
    static let noValue: Int32 = -1

    /// Sets item `item`'s folded values (nil: none, for a deleted item); `item == count` appends.
    /// Values no item holds any more are dropped once they make up half the arena.
    package mutating func set(item: Int, to foldedValues: [String]?) {
        if fields.isEmpty, let foldedValues { fields = Array(repeating: Field(), count: foldedValues.count) }
        for index in fields.indices {
            let current = item < fields[index].valueOfItem.count ? fields[index].valueOfItem[item] : Self.noValue
            let id = foldedValues.map { fields[index].valueID(for: $0[index], current: current) } ?? Self.noValue
            fields[index].setValue(id, ofItem: item)
            fields[index].dropUnheldValuesIfWasteful()
        }
    }

    /// Clears the bit of every item none of whose fields contains `foldedQuery`. A field none
    /// of whose values holds the query is not looked at (a name query over order titles).
    func keepMatches(of foldedQuery: String, in matches: inout SlotBits) {
        let query = Array(foldedQuery.utf8)
        guard !query.isEmpty else { return }
        let memberCount = matches.setCount
        var found = SlotBits(count: matches.capacity)
        for field in fields {
            if let matched = field.matchingValues(query) {
                field.markHits(among: matches, memberCount: memberCount, matched: matched, in: &found)
            }
        }
        matches.formIntersection(found)
    }
}
