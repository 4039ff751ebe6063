import Foundation

/// Strong entity tags from content (FNV-1a, 64 bits): equal bytes, equal tag.
public enum ETag {
    public static func make(for bytes: [UInt8]) -> String {
        "\"\(hexDigest(bytes))\""
    }

    public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(zeroPadded: hash, width: 16, radix: 16)
    }

    /// Whether an `If-None-Match` value names `etag` (RFC 9110 §13.1.2: weak comparison, `*` matches).
    public static func ifNoneMatch(_ header: String?, matches etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: [" ", "\t"])
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
