/// Item slots in a sorted order, stored in chunks of at most `maxChunk` (1,024), so inserting or
/// removing one costs two binary searches and a move within one chunk, not a move of the
/// whole order: a change's cost stays flat as the collection grows.
struct SlotOrder: Sendable, Sequence {
    private var chunks: [[Int32]]
    private(set) var count: Int
    /// The most slots a chunk holds before it splits in two.
    private let maxChunk: Int

    init(_ slots: [Int32], maxChunk: Int = 1024) {
        self.maxChunk = maxChunk
        count = slots.count
        chunks = stride(from: 0, to: slots.count, by: maxChunk / 2).map {
            Array(slots[$0..<Swift.min(slots.count, $0 + maxChunk / 2)])
        }
    }

    func makeIterator() -> FlattenSequence<[[Int32]]>.Iterator { chunks.joined().makeIterator() }

    /// A place in the order: a chunk and an offset in it.
    struct Position {
        var chunk: Int
        var offset: Int
    }

    /// The first position whose slot `isAfter` says sorts after the sought key (`isAfter` must
    /// be false, then true, along the order); the end when there is none.
    func partitionPoint(_ isAfter: (Int32) -> Bool) -> Position {
        // The first chunk whose last slot is after the key holds the point.
        var low = 0, high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if let last = chunks[middle].last, isAfter(last) { high = middle } else { low = middle + 1 }
        }
        guard low < chunks.count else { return Position(chunk: chunks.count, offset: 0) }
        let chunk = chunks[low]
        var first = 0, last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if isAfter(chunk[middle]) { last = middle } else { first = middle + 1 }
        }
        return Position(chunk: low, offset: first)
    }

    /// The number of slots before `position`.
    func index(of position: Position) -> Int {
        chunks[..<position.chunk].reduce(0) { $0 + $1.count } + position.offset
    }

    /// Inserts `slot` at `position`, splitting a chunk that grows past `maxChunk`.
    mutating func insert(_ slot: Int32, at position: Position) {
        count += 1
        guard position.chunk < chunks.count else {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= maxChunk {
                chunks.append([slot])
            } else {
                chunks[chunks.count - 1].append(slot)
            }
            return
        }
        chunks[position.chunk].insert(slot, at: position.offset)
        if chunks[position.chunk].count > maxChunk {
            let upper = Array(chunks[position.chunk][(maxChunk / 2)...])
            chunks[position.chunk].removeSubrange((maxChunk / 2)...)
            chunks.insert(upper, at: position.chunk + 1)
        }
    }

    /// Removes the slot just before `position` if it is `slot`; returns whether it did.
    @discardableResult
    mutating func remove(_ slot: Int32, before position: Position) -> Bool {
        var chunk = position.chunk, offset = position.offset - 1
        if offset < 0 {
            chunk -= 1
            guard chunk >= 0 else { return false }
            offset = chunks[chunk].count - 1
        }
        guard chunk < chunks.count, offset >= 0, chunks[chunk][offset] == slot else { return false }
        chunks[chunk].remove(at: offset)
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        count -= 1
        return true
    }

    /// Removes `slot` wherever it is, by a linear scan. Only for a slot that was not where its
    /// key places it: a broken invariant, which stops a debug build (tests) and is survived in a
    /// release build.
    mutating func removeScanning(_ slot: Int32) {
        assertionFailure("slot \(slot) was not where its sort key places it")
        for chunk in chunks.indices {
            if let offset = chunks[chunk].firstIndex(of: slot) {
                remove(slot, before: Position(chunk: chunk, offset: offset + 1))
                return
            }
        }
    }

    /// The slots set in `bits`, in this order: the walk a cold query makes over every slot.
    /// Whether a slot is set is unpredictable, so the walk has no branch on it (each slot is
    /// written, and the write position advances by its bit), and it fills chunks directly.
    func filtered(by bits: SlotBits) -> SlotOrder {
        let half = Swift.max(1, maxChunk / 2)
        var result = SlotOrder([], maxChunk: maxChunk)
        let buffer = UnsafeMutablePointer<Int32>.allocate(capacity: half)
        defer { buffer.deallocate() }
        var filled = 0
        bits.words.withUnsafeBufferPointer { words in
            for chunk in chunks {
                chunk.withUnsafeBufferPointer { slots in
                    var count = filled  // a local the loop keeps in a register
                    for slot in slots {
                        let index = Int(slot)
                        let word = index >> 6 < words.count ? words[index >> 6] : 0
                        buffer[count] = slot
                        count += Int(truncatingIfNeeded: word &>> UInt64(index) & 1)
                        if count == half {
                            result.chunks.append(Array(UnsafeBufferPointer(start: buffer, count: half)))
                            count = 0
                        }
                    }
                    filled = count
                }
            }
        }
        if filled > 0 { result.chunks.append(Array(UnsafeBufferPointer(start: buffer, count: filled))) }
        result.count = result.chunks.reduce(0) { $0 + $1.count }
        return result
    }

    /// The stretches of equal `key` along the order, each with its first rank, length, last
    /// slot and, given `value`, the sum of `value` over its slots. `key` must change only where
    /// a stretch ends: a chunk whose last slot has the stretch's key is taken whole and an end
    /// inside a chunk is found by binary search, so `key` is read about twice per chunk plus
    /// log₂ of a chunk per stretch, not once per slot. `value`, when given, is read per slot.
    func runs(key: (Int32) -> Int64, value: ((Int32) -> Int64)? = nil) -> [SlotRun] {
        var runs: [SlotRun] = []
        var rank = 0
        for chunk in chunks {
            var offset = 0
            while offset < chunk.count {
                let runKey = key(chunk[offset])
                var end = chunk.count
                if key(chunk[chunk.count - 1]) != runKey {
                    var low = offset + 1, high = chunk.count - 1  // the key at `high` differs
                    while low < high {
                        let middle = (low + high) / 2
                        if key(chunk[middle]) == runKey { low = middle + 1 } else { high = middle }
                    }
                    end = low
                }
                let sum = value.map { value in chunk[offset..<end].reduce(0) { $0 &+ value($1) } } ?? 0
                if let last = runs.last, last.key == runKey {
                    runs[runs.count - 1].count += end - offset
                    runs[runs.count - 1].lastSlot = chunk[end - 1]
                    runs[runs.count - 1].sum &+= sum
                } else {
                    runs.append(SlotRun(key: runKey, start: rank + offset, count: end - offset, lastSlot: chunk[end - 1], sum: sum))
                }
                offset = end
            }
            rank += chunk.count
        }
        return runs
    }

    /// The slots at `range` of the whole order.
    func slots(in range: Range<Int>) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(range.count)
        var start = 0
        for chunk in chunks {
            let end = start + chunk.count
            if end > range.lowerBound && start < range.upperBound {
                result += chunk[(Swift.max(range.lowerBound, start) - start)..<(Swift.min(range.upperBound, end) - start)]
            }
            if end >= range.upperBound { break }
            start = end
        }
        return result
    }
}

/// One stretch of equal keys along a `SlotOrder` (see `SlotOrder.runs`).
struct SlotRun: Equatable {
    let key: Int64
    /// The rank of its first slot.
    let start: Int
    var count: Int
    var lastSlot: Int32
    /// The sum of the values asked for over its slots (0 when none were).
    var sum: Int64
}
