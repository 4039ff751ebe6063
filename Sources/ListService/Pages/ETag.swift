import Foundation

/// Strong entity tags from content (FNV-1a, 64 bits): equal bytes, equal tag.
package enum ETag {
    package static func make(for bytes: [UInt8]) -> String {
        "\"\(hexDigest(bytes))\""
    }

    package static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        String(zeroPadded: digest(bytes), width: 16, radix: 16)
    }

    /// FNV-1a, 64 bits.
    static func digest(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
