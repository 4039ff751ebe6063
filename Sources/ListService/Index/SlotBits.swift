/// One bit per item slot: which items a view holds, or a query matches. A million items take
/// 128 KiB, so a walk of a presorted order that tests them stays in cache.
struct SlotBits: Sendable, Equatable {
    private(set) var words: [UInt64]

    /// `count` slots, all clear (or all set).
    init(count: Int, set: Bool = false) {
        words = [UInt64](repeating: set ? .max : 0, count: (count + 63) / 64)
        if set, count % 64 != 0 { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
    }

    /// How many slots the bits cover (a multiple of 64).
    var capacity: Int { words.count * 64 }

    subscript(slot: Int) -> Bool {
        get { slot < capacity && words[slot >> 6] & (1 << UInt64(slot & 63)) != 0 }
        set {
            while slot >= capacity { words.append(0) }
            if newValue { words[slot >> 6] |= 1 << UInt64(slot & 63) } else { words[slot >> 6] &= ~(1 << UInt64(slot & 63)) }
        }
    }

    /// The number of set bits.
    var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The number of slots set both here and in `other`.
    func intersectionCount(_ other: SlotBits) -> Int {
        var count = 0
        for index in 0..<min(words.count, other.words.count) { count += (words[index] & other.words[index]).nonzeroBitCount }
        return count
    }

    /// Calls `body` with each word that has set slots: word `index` holds slots
    /// `64 * index ..< 64 * index + 64`, the lowest bit first.
    func forEachWord(_ body: (_ index: Int, _ word: UInt64) -> Void) {
        words.withUnsafeBufferPointer { words in
            for index in words.indices where words[index] != 0 { body(index, words[index]) }
        }
    }

    /// Sets the slots of word `index` whose bits are set in `bits` (the word must exist).
    mutating func insert(_ bits: UInt64, intoWordAt index: Int) { words[index] |= bits }

    /// Clears every slot not set in `other`.
    mutating func formIntersection(_ other: SlotBits) {
        other.words.withUnsafeBufferPointer { other in
            words.withUnsafeMutableBufferPointer { words in
                for index in words.indices { words[index] &= index < other.count ? other[index] : 0 }
            }
        }
    }
}
