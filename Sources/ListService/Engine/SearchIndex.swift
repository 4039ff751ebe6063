import CSystem

/// Folded search text per field, each distinct value stored once: 100,000 orders have about
/// a thousand distinct customer names, so a query searches those, not 100,000 copies. Values
/// sit in one contiguous arena per field, searched with `memmem`.
package struct SearchIndex: Sendable {
    private var fields: [Field]

    /// One searchable field: its distinct folded values and each item's value.
    private struct Field: Sendable {
        /// Values separated by NUL, which a query never holds, so no match spans two values.
        var arena: [UInt8] = []
        /// `offsets[v]` is where value v starts; one extra entry marks the end.
        var offsets: [Int] = [0]
        var valueOfItem: [Int32] = []
        var valueIDs: [String: Int32] = [:]

        mutating func append(_ folded: String) {
            valueOfItem.append(valueID(for: folded))
        }

        /// The id of a distinct value, adding it to the arena the first time.
        mutating func valueID(for folded: String) -> Int32 {
            if let existing = valueIDs[folded] { return existing }
            let id = Int32(offsets.count - 1)
            valueIDs[folded] = id
            arena.append(contentsOf: folded.utf8.lazy.map { $0 == 0 ? 0x20 : $0 })
            arena.append(0)
            offsets.append(arena.count)
            return id
        }

        /// Which distinct values contain `query`.
        func matchingValues(_ query: [UInt8]) -> [Bool] {
            var matched = [Bool](repeating: false, count: offsets.count - 1)
            arena.withUnsafeBytes { arenaBytes in
                query.withUnsafeBytes { queryBytes in
                    guard let base = arenaBytes.baseAddress, let needle = queryBytes.baseAddress else { return }
                    var position = 0
                    while position < arenaBytes.count,
                        let hit = csystem_memmem(base + position, arenaBytes.count - position, needle, queryBytes.count)
                    {
                        let value = valueContaining(base.distance(to: hit))
                        matched[value] = true
                        position = offsets[value + 1]  // one hit per value is enough
                    }
                }
            }
            return matched
        }

        private func valueContaining(_ byteOffset: Int) -> Int {
            var low = 0, high = offsets.count - 1  // invariant: offsets[low] <= byteOffset < offsets[high]
            while high - low > 1 {
                let middle = (low + high) / 2
                if offsets[middle] <= byteOffset { low = middle } else { high = middle }
            }
            return low
        }
    }

    package init(fieldCount: Int) {
        fields = Array(repeating: Field(), count: fieldCount)
    }

    /// Marks an item that has no text (a deleted one): it matches no query.
    static let noValue: Int32 = -1

    /// Adds the next item's folded values, one per field.
    package mutating func append(_ foldedValues: [String]) {
        precondition(foldedValues.count == fields.count)
        for (index, value) in foldedValues.enumerated() { fields[index].append(value) }
    }

    /// Sets item `item`'s folded values (nil: none, for a deleted item); `item == count` appends.
    /// Values no longer used stay in the arena until the next rebuild: a value is small, and
    /// distinct values (names, places) are few.
    package mutating func set(item: Int, to foldedValues: [String]?) {
        if fields.isEmpty, let foldedValues { fields = Array(repeating: Field(), count: foldedValues.count) }
        for index in fields.indices {
            let id = foldedValues.map { fields[index].valueID(for: $0[index]) } ?? Self.noValue
            if item == fields[index].valueOfItem.count {
                fields[index].valueOfItem.append(id)
            } else {
                fields[index].valueOfItem[item] = id
            }
        }
    }

    /// Clears `matches[i]` for every item none of whose fields contains `foldedQuery`.
    package func keepMatches(of foldedQuery: String, in matches: inout [Bool]) {
        let query = Array(foldedQuery.utf8)
        guard !query.isEmpty else { return }
        let matchedValues = fields.map { $0.matchingValues(query) }
        for index in matches.indices where matches[index] {
            var found = false
            for (field, matched) in zip(fields, matchedValues) {
                let value = field.valueOfItem[index]
                if value != Self.noValue && matched[Int(value)] {
                    found = true
                    break
                }
            }
            matches[index] = found
        }
    }
}
