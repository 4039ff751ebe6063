import Foundation

/// Strong entity tags from content: equal bytes, equal tag.
package enum ETag {
    /// A body's tag (`"…"`, 16 hex digits of `bodyDigest`).
    package static func make(for bytes: [UInt8]) -> String {
        "\"\(hexBodyDigest(bytes))\""
    }

    /// 16 hex digits of `bodyDigest`.
    package static func hexBodyDigest(_ bytes: [UInt8]) -> String {
        String(zeroPadded: bodyDigest(bytes), width: 16, radix: 16)
    }

    /// 16 hex digits of `digest` (criteria fingerprints, which cursors carry).
    package static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        String(zeroPadded: digest(bytes), width: 16, radix: 16)
    }

    /// FNV-1a, 64 bits, a byte at a time: item versions and fingerprints, which outlive a
    /// process (clients hold them), so it stays this.
    static func digest(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// A 64-bit digest of a response body, eight bytes at a time (a multiply and xor-shift per
    /// word, FNV-1a for the last few bytes): a page with every section of a long list is
    /// 150 KB, which byte-at-a-time FNV took 200 µs to hash. Bodies are tagged afresh by each
    /// process, so the function is free to change.
    static func bodyDigest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01B3
                offset += 1
            }
            return hash
        }
    }
}
