/// A hash table of 4-byte references (item slots, value ids) whose keys live elsewhere: in the
/// items themselves, or in a search field's arena. Where a `[String: Int32]` keeps a 16-byte
/// string and the value in every bucket (40 MB for a million ids), this keeps the reference
/// only (8 MB): a lookup hashes the key, probes linearly and asks the caller whether the
/// reference it found holds that key.
///
/// References are never removed (slots and value ids are stable), so probing needs no
/// tombstones. The table is at most half full.
struct ReferenceTable: Sendable {
    private var buckets: [Int32]
    private var count = 0

    private static let empty: Int32 = -1

    /// A table that holds `capacity` references before it grows.
    init(capacity: Int = 0) {
        var size = 8
        while size < 2 * capacity { size *= 2 }
        buckets = [Int32](repeating: Self.empty, count: size)
    }

    /// The bucket index bits (the bucket count is a power of two).
    private var mask: Int { buckets.count - 1 }

    /// The reference whose key hashes to `hash` and is the one looked for (`isKey`), if any.
    func find(hash: Int, isKey: (Int32) -> Bool) -> Int32? {
        var index = hash & mask
        while true {
            let reference = buckets[index]
            if reference == Self.empty { return nil }
            if isKey(reference) { return reference }
            index = (index + 1) & mask
        }
    }

    /// Adds `reference`, whose key hashes to `hash` and is not in the table yet. Growing
    /// rehashes every reference, so it asks for their hashes (`hashOf`).
    mutating func insert(_ reference: Int32, hash: Int, hashOf: (Int32) -> Int) {
        if 2 * (count + 1) > buckets.count { grow(hashOf: hashOf) }
        place(reference, hash: hash)
        count += 1
    }

    private mutating func place(_ reference: Int32, hash: Int) {
        var index = hash & mask
        while buckets[index] != Self.empty { index = (index + 1) & mask }
        buckets[index] = reference
    }

    private mutating func grow(hashOf: (Int32) -> Int) {
        let old = buckets
        buckets = [Int32](repeating: Self.empty, count: old.count * 2)
        for reference in old where reference != Self.empty { place(reference, hash: hashOf(reference)) }
    }
}
