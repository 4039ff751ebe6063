/// A set of ASCII bytes as two 64-bit masks (bytes 0–63 and 64–127): membership is a shift and
/// a mask. Written with literal masks, a set is a constant, not a lazily made global checked on
/// each use; the tests hold each set to the characters it stands for.
struct ASCIISet {
    let below64: UInt64
    let from64: UInt64

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? below64 >> byte & 1 == 1 : byte < 128 && from64 >> (byte - 64) & 1 == 1
    }
}
