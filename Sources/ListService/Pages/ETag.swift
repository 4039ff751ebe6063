import Foundation

/// Strong entity tags from content: equal bytes, equal tag.
package enum ETag {
    /// A body's tag (`"…"`, 16 hex digits of `bodyDigest`).
    package static func make(for bytes: [UInt8]) -> String { quoted(bodyDigest(bytes)) }

    /// The tag of a body made of `lead` and a shared `tail` (whose digest is made once):
    /// `lead`'s digest and the tail's, folded together.
    static func make(lead: [UInt8], tail: PageTail) -> String {
        quoted(mix(mix(bodyDigest(lead), tail.digest), UInt64(tail.bytes.count)))
    }

    /// 16 hex digits of `bodyDigest`.
    package static func hexBodyDigest(_ bytes: [UInt8]) -> String { hex(bodyDigest(bytes)) }

    /// 16 hex digits of `digest` (criteria fingerprints, which cursors carry).
    package static func hexDigest(_ bytes: some Sequence<UInt8>) -> String { hex(digest(bytes)) }

    /// `hexDigest` of `parts` joined by `|`, without joining them: every list request makes one.
    static func hexDigest(joining parts: String...) -> String {
        var hash = digestOffsetBasis
        for (index, part) in parts.enumerated() {
            if index > 0 { hash = fnv(hash, UInt8(ascii: "|")) }
            for byte in part.utf8 { hash = fnv(hash, byte) }
        }
        return hex(hash)
    }

    /// 16 lowercase hex digits, written straight into the string's storage.
    static func hex(_ digest: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: digest >> UInt64(60 - 4 * index)) & 0xF
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }
    private static func quoted(_ digest: UInt64) -> String { "\"\(hex(digest))\"" }

    /// FNV-1a, 64 bits, a byte at a time: item versions and fingerprints, which outlive a
    /// process (clients hold them), so it stays this.
    static func digest(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(digestOffsetBasis, fnv)
    }

    private static let digestOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// One byte into an FNV-1a hash.
    @inline(__always)
    private static func fnv(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    /// A 64-bit digest of a response body: four independent lanes of eight bytes (a multiply
    /// and xor-shift per word, so the multiplies of one round overlap), the lanes folded
    /// together, then the last words and bytes. A page with every section of a long list is
    /// 140 KB: byte-at-a-time FNV took 200 µs to hash it, one lane 25 µs. Bodies are tagged
    /// afresh by each process, so the function is free to change.
    static func bodyDigest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let seed: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (seed, seed &+ 1, seed &+ 2, seed &+ 3)
            var offset = 0
            while offset + 32 <= raw.count {
                lanes.0 = mix(lanes.0, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lanes.1 = mix(lanes.1, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lanes.2 = mix(lanes.2, raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lanes.3 = mix(lanes.3, raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
            var hash = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
            while offset + 8 <= raw.count {
                hash = mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01B3
                offset += 1
            }
            return hash
        }
    }

    /// One word into a lane: xor, multiply by the 64-bit golden ratio, fold the high bits down.
    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let multiplied = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return multiplied ^ (multiplied >> 29)
    }
}
