import Glibc

/// A sort key (a number, or a text's rank) and its item's slot, sorted together: neighbours
/// compare in one array rather than looking up two. 12 bytes, the key in two halves (an
/// `Int64` would pad it to 16: 4 MB more per field at a million items). Not nested in the
/// generic state: there its sort ran unspecialized, through value witnesses, four times slower.
struct SortEntry {
    private let keyHigh: Int32
    private let keyLow: UInt32
    let slot: Int32

    init(key: Int64, slot: Int32) {
        keyHigh = Int32(truncatingIfNeeded: key >> 32)
        keyLow = UInt32(truncatingIfNeeded: key)
        self.slot = slot
    }

    /// Whether the keys are equal (ties aside).
    func hasKey(of other: SortEntry) -> Bool { keyHigh == other.keyHigh && keyLow == other.keyLow }

    /// Whether this entry sorts before `other` by key, then by slot.
    func precedes(_ other: SortEntry) -> Bool { (keyHigh, keyLow, slot) < (other.keyHigh, other.keyLow, other.slot) }

    /// Whether this entry's key is below `other`'s.
    func hasKey(below other: SortEntry) -> Bool { (keyHigh, keyLow) < (other.keyHigh, other.keyLow) }
}

/// The entries of one sort field's order while it is built, in memory of their own made at
/// the collection's size. Once sorted, the same memory takes the slots (a third of it) and the
/// rest goes back to the system before the order is made of them: at its peak a field's
/// order costs 12 bytes an item, not 16 (the entries and the order side by side; at a million
/// items that was 4 MB of the load's peak).
struct SortEntries: ~Copyable {
    private var memory: UnsafeMutableRawPointer
    private let capacity: Int
    private(set) var count = 0

    private static var stride: Int { MemoryLayout<SortEntry>.stride }

    /// Room for `capacity` entries.
    init(capacity: Int) {
        guard let memory = malloc(Swift.max(1, capacity) * Self.stride) else { fatalError("out of memory for \(capacity) sort entries") }
        self.memory = memory
        self.capacity = capacity
    }

    deinit { free(memory) }

    mutating func append(_ entry: SortEntry) {
        precondition(count < capacity, "more sort entries than items")
        memory.storeBytes(of: entry, toByteOffset: count * Self.stride, as: SortEntry.self)
        count += 1
    }

    mutating func removeAll() { count = 0 }

    /// The slots by key, then id: by `idRank` of each slot, or by slot where ids ascend with
    /// slots (nil); each marked when its key equals the previous one's. Ranks are read only
    /// where keys are equal, so no array of slots by rank is made beside the entries.
    consuming func sortedOrder(idRank: [Int32]?) -> SlotOrder {
        var entries = UnsafeMutableBufferPointer(start: memory.bindMemory(to: SortEntry.self, capacity: count), count: count)
        if let idRank {
            idRank.withUnsafeBufferPointer { rank in
                entries.sort { $0.hasKey(of: $1) ? rank[Int($0.slot)] < rank[Int($1.slot)] : $0.hasKey(below: $1) }
            }
        } else {
            entries.sort { $0.precedes($1) }
        }
        // Each slot, marked, into the memory's first third: slot i goes to bytes 4i..<4i+4,
        // inside entries already read. Raw loads and stores: the bytes change type under them.
        var previous: SortEntry?
        for index in 0..<count {
            let entry = memory.load(fromByteOffset: index * Self.stride, as: SortEntry.self)
            let marked = previous.map { entry.hasKey(of: $0) } == true ? entry.slot | SlotOrder.continuesRun : entry.slot
            memory.storeBytes(of: marked, toByteOffset: index * 4, as: Int32.self)
            previous = entry
        }
        // glibc shrinks a block of pages of its own in place and hands the rest back.
        if let slots = realloc(memory, Swift.max(1, count * 4)) { memory = slots }
        let slots = memory
        return SlotOrder(count: count) { slots.load(fromByteOffset: $0 * 4, as: Int32.self) }
    }
}
