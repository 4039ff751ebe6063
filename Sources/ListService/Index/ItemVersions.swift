import Basics

/// Item versions (`CollectionEngine.version(of:)`) remembered per slot and revision, so list
/// rows can carry them: computing one means encoding the item, about as costly as formatting
/// its row, and a version stays valid until its item changes (a new revision).
final class ItemVersions<C: ListCollection>: Sendable {
    /// By slot: a digest and the revision it was computed at. Slots are dense, so an array
    /// beats a dictionary on every row.
    private let known = Locked<[RememberedVersion]>([])

    /// The versions of a page's items (as numbers; written as 16 hex digits), in its order:
    /// remembered ones at once, the others computed (outside the lock) and remembered.
    func versions(of contents: CollectionState<C>.PageContents) -> [UInt64] {
        var digests = known.withLock { known in
            contents.slots.indices.map { index -> UInt64? in
                let slot = Int(contents.slots[index])
                guard slot < known.count, known[slot].isKnown, known[slot].revision == contents.revisions[index] else { return nil }
                return known[slot].digest
            }
        }
        var computed: [(slot: Int32, revision: UInt32, digest: UInt64)] = []
        for index in digests.indices where digests[index] == nil {
            let digest = Self.digest(of: contents.items[index])
            digests[index] = digest
            computed.append((contents.slots[index], contents.revisions[index], digest))
        }
        if !computed.isEmpty {
            known.withLock { known in
                for entry in computed {
                    let slot = Int(entry.slot)
                    if slot >= known.count { known += [RememberedVersion](repeating: RememberedVersion(), count: slot + 1 - known.count) }
                    known[slot] = RememberedVersion(isKnown: true, revision: entry.revision, digest: entry.digest)
                }
            }
        }
        return digests.map { $0 ?? 0 }
    }

    /// The item's version as a number: FNV-1a of its stored form.
    static func digest(of item: C.Item) -> UInt64 { ETag.digest(C.record(of: item)) }
}

/// A slot's remembered version. Not nested in the generic class: an array of a type that
/// depends on no generic parameter is grown by specialized code (nested, growing it to a new
/// slot near the end of 10,000 items took 25 M instructions of metadata look-ups).
private struct RememberedVersion {
    var isKnown = false
    var revision: UInt32 = 0
    var digest: UInt64 = 0
}
