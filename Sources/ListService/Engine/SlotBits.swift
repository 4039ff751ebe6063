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

    /// Keeps only the set slots for which `keep` is true (it is asked about set slots only).
    mutating func keep(where keep: (Int) -> Bool) {
        words.withUnsafeMutableBufferPointer { words in
            for index in words.indices where words[index] != 0 {
                var remaining = words[index], kept: UInt64 = 0
                while remaining != 0 {
                    let bit = remaining.trailingZeroBitCount
                    if keep(index << 6 | bit) { kept |= 1 << UInt64(bit) }
                    remaining &= remaining - 1
                }
                words[index] = kept
            }
        }
    }
}
