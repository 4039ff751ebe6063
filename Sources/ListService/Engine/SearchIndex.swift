import CSystem

/// Folded search text of every item in one contiguous arena, so a query is a few `memmem`
/// scans over memory instead of a string comparison per item.
public struct SearchIndex: Sendable {
    /// Keys separated by NUL, which a folded query never holds (so no match spans two items).
    private var arena: [UInt8] = []
    /// `offsets[i]` is where item i's key starts; one extra entry marks the end.
    private var offsets: [Int] = [0]

    public init() {}

    public var count: Int { offsets.count - 1 }

    public mutating func append(_ foldedKey: String) {
        arena.append(contentsOf: foldedKey.utf8.lazy.map { $0 == 0 ? 0x20 : $0 })
        arena.append(0)
        offsets.append(arena.count)
    }

    /// Clears `matches[i]` for every item whose key does not contain `foldedQuery`.
    public func keepMatches(of foldedQuery: String, in matches: inout [Bool]) {
        let query = Array(foldedQuery.utf8)
        guard !query.isEmpty else { return }
        var found = [Bool](repeating: false, count: count)
        arena.withUnsafeBytes { arenaBytes in
            query.withUnsafeBytes { queryBytes in
                guard let base = arenaBytes.baseAddress, let needle = queryBytes.baseAddress else { return }
                var position = 0
                while position < arenaBytes.count,
                    let hit = csystem_memmem(base + position, arenaBytes.count - position, needle, queryBytes.count)
                {
                    let item = itemContaining(base.distance(to: hit))
                    found[item] = true
                    position = offsets[item + 1]  // one hit per item is enough
                }
            }
        }
        for index in matches.indices where matches[index] && !found[index] { matches[index] = false }
    }

    /// Whether item `index` matches, for checking a single item.
    public func matches(_ index: Int, foldedQuery: String) -> Bool {
        let query = Array(foldedQuery.utf8)
        guard !query.isEmpty else { return true }
        return arena[offsets[index]..<(offsets[index + 1] - 1)].withUnsafeBytes { key in
            query.withUnsafeBytes { needle in
                guard let keyBase = key.baseAddress, let needleBase = needle.baseAddress else { return false }
                return csystem_memmem(keyBase, key.count, needleBase, needle.count) != nil
            }
        }
    }

    private func itemContaining(_ byteOffset: Int) -> Int {
        var low = 0, high = offsets.count - 1  // invariant: offsets[low] <= byteOffset < offsets[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if offsets[middle] <= byteOffset { low = middle } else { high = middle }
        }
        return low
    }
}
