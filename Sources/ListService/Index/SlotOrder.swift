/// Item slots in a sorted order, stored in chunks of at most `maxChunk` (1,024), so inserting or
/// removing one costs two binary searches and a move within one chunk, not a move of the
/// whole order: a change's cost stays flat as the collection grows.
///
/// A stored slot's top bit (`continuesRun`) may say that its sort key equals the one before
/// it. A sort field's order of the whole collection is kept in one direction with those marks,
/// so the other direction is the same order read backwards stretch by stretch of equal keys
/// (`reversedRuns`, ties still by id ascending) and needs no copy of its own: 4 MB a field a
/// million items. Every slot handed out has the bit cleared.
struct SlotOrder: Sendable, Sequence {
    private var chunks: [[Int32]]
    private(set) var count: Int
    /// The most slots a chunk holds before it splits in two.
    private let maxChunk: Int

    /// The bit of a stored slot that says its key equals the previous slot's.
    static let continuesRun = Int32.min

    /// `slots` in this order, each with its `continuesRun` bit if it has one.
    init(_ slots: [Int32], maxChunk: Int = 1024) {
        self.init(count: slots.count, maxChunk: maxChunk) { slots[$0] }
    }

    /// The `count` slots `slot(at:)` gives for 0, 1, …, each with its `continuesRun` bit if it
    /// has one, put into chunks as they come: no array of them all beside the order.
    init(count: Int, maxChunk: Int = 1024, slot: (_ at: Int) -> Int32) {
        self.maxChunk = maxChunk
        self.count = count
        chunks = stride(from: 0, to: count, by: maxChunk / 2).map { start in
            (start..<Swift.min(count, start + maxChunk / 2)).map(slot)
        }
    }

    func makeIterator() -> LazyMapSequence<FlattenSequence<[[Int32]]>, Int32>.Iterator {
        chunks.joined().lazy.map { $0 & Int32.max }.makeIterator()
    }

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
            if let last = chunks[middle].last, isAfter(last & Int32.max) { high = middle } else { low = middle + 1 }
        }
        guard low < chunks.count else { return Position(chunk: chunks.count, offset: 0) }
        let chunk = chunks[low]
        var first = 0, last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if isAfter(chunk[middle] & Int32.max) { last = middle } else { first = middle + 1 }
        }
        return Position(chunk: low, offset: first)
    }

    /// The number of slots before `position`.
    func index(of position: Position) -> Int {
        chunks[..<position.chunk].reduce(0) { $0 + $1.count } + position.offset
    }

    /// Inserts `slot` at `position`, splitting a chunk that grows past `maxChunk`. In an order
    /// that marks its stretches of equal keys, `hasItsKey` says whether a slot's key equals the
    /// inserted slot's, and the slot and the one after it are marked by it.
    mutating func insert(_ slot: Int32, at position: Position, hasItsKey: ((Int32) -> Bool)? = nil) {
        var stored = slot
        if let hasItsKey {
            if let previous = self.position(before: position), hasItsKey(self[previous]) { stored |= Self.continuesRun }
            if let next = self.position(atOrAfter: position) {
                chunks[next.chunk][next.offset] = hasItsKey(self[next]) ? self[next] | Self.continuesRun : self[next]
            }
        }
        count += 1
        guard position.chunk < chunks.count else {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= maxChunk {
                chunks.append([stored])
            } else {
                chunks[chunks.count - 1].append(stored)
            }
            return
        }
        chunks[position.chunk].insert(stored, at: position.offset)
        if chunks[position.chunk].count > maxChunk {
            let upper = Array(chunks[position.chunk][(maxChunk / 2)...])
            chunks[position.chunk].removeSubrange((maxChunk / 2)...)
            chunks.insert(upper, at: position.chunk + 1)
        }
    }

    /// The slot at `position` (which must hold one), its mark cleared.
    private subscript(position: Position) -> Int32 { chunks[position.chunk][position.offset] & Int32.max }

    /// The position of the slot just before `position`; nil at the start. (No chunk is empty.)
    private func position(before position: Position) -> Position? {
        if position.offset > 0 { return Position(chunk: position.chunk, offset: position.offset - 1) }
        let chunk = Swift.min(position.chunk, chunks.count) - 1
        return chunk >= 0 ? Position(chunk: chunk, offset: chunks[chunk].count - 1) : nil
    }

    /// The position of the slot at `position`, or the first after it; nil at the end.
    private func position(atOrAfter position: Position) -> Position? {
        var chunk = position.chunk, offset = position.offset
        while chunk < chunks.count && offset >= chunks[chunk].count {
            chunk += 1
            offset = 0
        }
        return chunk < chunks.count ? Position(chunk: chunk, offset: offset) : nil
    }

    /// Removes the slot just before `position` if it is `slot`; returns whether it did. The
    /// slot after it continues a stretch of equal keys only if both did.
    @discardableResult
    mutating func remove(_ slot: Int32, before position: Position) -> Bool {
        guard let removed = self.position(before: position), self[removed] == slot else { return false }
        if let next = self.position(atOrAfter: position), chunks[removed.chunk][removed.offset] & Self.continuesRun == 0 {
            chunks[next.chunk][next.offset] &= Int32.max
        }
        chunks[removed.chunk].remove(at: removed.offset)
        if chunks[removed.chunk].isEmpty { chunks.remove(at: removed.chunk) }
        count -= 1
        return true
    }

    /// Removes `slot` wherever it is, by a linear scan. Only for a slot that was not where its
    /// key places it: a broken invariant, which stops a debug build (tests) and is survived in a
    /// release build.
    mutating func removeScanning(_ slot: Int32) {
        assertionFailure("slot \(slot) was not where its sort key places it")
        for chunk in chunks.indices {
            if let offset = chunks[chunk].firstIndex(where: { $0 & Int32.max == slot }) {
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
                    for stored in slots {
                        let slot = stored & Int32.max, index = Int(slot)
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

    /// The slots set in `bits` (all when nil), with this order's stretches of equal keys in
    /// reverse and each stretch as it was: the other direction of an order that marks its
    /// stretches, ties still by id ascending. A walk backwards like `filtered`'s, without a
    /// branch on a slot, writes the kept slots all reversed, each marked when a stretch joins
    /// it to the one before; each full buffer's finished stretches are turned back around.
    func reversedRuns(keeping bits: SlotBits? = nil) -> SlotOrder {
        let half = Swift.max(1, maxChunk / 2)
        var result = SlotOrder([], maxChunk: maxChunk)
        var capacity = half
        var buffer = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0
        // `continuesRun` when every slot from the last one kept down to the one read last
        // continues its stretch: the next one kept joins the last one kept.
        var joined: Int32 = 0
        let keepAll: UInt64 = bits == nil ? 1 : 0
        // Turns the buffer's first `end` slots around stretch by stretch, moves them into
        // chunks and what follows to the buffer's start.
        func emit(upTo end: Int) {
            var start = 0
            for position in stride(from: 1, through: end, by: 1) where position == end || buffer[position] & Self.continuesRun == 0 {
                var (low, high) = (start, position - 1)
                while low < high {
                    let a = buffer[low], b = buffer[high]
                    buffer[low] = b & Int32.max | a & Self.continuesRun
                    buffer[high] = a & Int32.max | b & Self.continuesRun
                    (low, high) = (low + 1, high - 1)
                }
                start = position
            }
            for first in stride(from: 0, to: end, by: half) {
                result.chunks.append(Array(UnsafeBufferPointer(start: buffer + first, count: Swift.min(half, end - first))))
            }
            buffer.update(from: buffer + end, count: filled - end)
            filled -= end
        }
        (bits?.words ?? []).withUnsafeBufferPointer { words in
            for chunk in chunks.reversed() {
                chunk.withUnsafeBufferPointer { slots in
                    var count = filled, join = joined  // locals the loop keeps in registers
                    for stored in slots.reversed() {
                        let slot = stored & Int32.max, index = Int(slot)
                        let word = index >> 6 < words.count ? words[index >> 6] : 0
                        let kept = word &>> UInt64(index) & 1 | keepAll
                        buffer[count] = slot | join
                        join = stored & Self.continuesRun & (join | Int32(truncatingIfNeeded: kept) &<< 31)
                        count += Int(truncatingIfNeeded: kept)
                        guard count == capacity else { continue }
                        // Full: emit up to the last stretch's start, which may go on; a
                        // stretch that fills the buffer makes it larger.
                        var last = count - 1
                        while last > 0 && buffer[last] & Self.continuesRun != 0 { last -= 1 }
                        filled = count
                        if last > 0 {
                            emit(upTo: last)
                        } else {
                            let larger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
                            larger.update(from: buffer, count: count)
                            buffer.deallocate()
                            (buffer, capacity) = (larger, capacity * 2)
                        }
                        count = filled
                    }
                    filled = count
                    joined = join
                }
            }
        }
        emit(upTo: filled)
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
                let runKey = key(chunk[offset] & Int32.max)
                var end = chunk.count
                if key(chunk[chunk.count - 1] & Int32.max) != runKey {
                    var low = offset + 1, high = chunk.count - 1  // the key at `high` differs
                    while low < high {
                        let middle = (low + high) / 2
                        if key(chunk[middle] & Int32.max) == runKey { low = middle + 1 } else { high = middle }
                    }
                    end = low
                }
                let sum = value.map { value in chunk[offset..<end].reduce(0) { $0 &+ value($1 & Int32.max) } } ?? 0
                let lastSlot = chunk[end - 1] & Int32.max
                if let last = runs.last, last.key == runKey {
                    runs[runs.count - 1].count += end - offset
                    runs[runs.count - 1].lastSlot = lastSlot
                    runs[runs.count - 1].sum &+= sum
                } else {
                    runs.append(SlotRun(key: runKey, start: rank + offset, count: end - offset, lastSlot: lastSlot, sum: sum))
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
                result += chunk[(Swift.max(range.lowerBound, start) - start)..<(Swift.min(range.upperBound, end) - start)].lazy.map {
                    $0 & Int32.max
                }
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
