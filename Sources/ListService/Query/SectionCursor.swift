import Basics

/// The cursor of a section of a grouped list (`sections[].cursor`): it names the section by
/// its key, so it opens a page at the section's first row wherever that row now is, and stays
/// valid as long as the section exists. With the list's fingerprint (8 bytes) and a checksum
/// of both (CRC-32), it is written in binary, in half the text of a row's cursor: a page
/// carries one for every section of the list.
package struct SectionCursor: Sendable, Hashable {
    /// The list's fingerprint: sixteen hex digits (`ListCriteria.fingerprint`).
    package let fingerprint: String
    package let key: String

    package init(fingerprint: String, key: String) {
        self.fingerprint = fingerprint
        self.key = key
    }

    /// The first byte of every section cursor; a row's cursor (`PageCursor`) starts otherwise.
    private static let mark = UInt8(ascii: "S")

    /// base64url of the mark, the fingerprint's 8 bytes, the key and the checksum (4 bytes).
    package var encoded: String {
        var bytes = [Self.mark]
        let digest = UInt64(fingerprint, radix: 16) ?? 0
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: digest >> UInt64(shift))) }
        bytes.append(contentsOf: key.utf8)
        Self.appendChecksum(of: bytes, to: &bytes)
        return Base64URL.encode(bytes)
    }

    /// Decodes a section cursor; nil for anything else (a row's cursor, an edited one).
    package init?(encoded: String) {
        guard encoded.utf8.count <= 512, let bytes = Base64URL.decode(encoded.utf8), bytes.count > 13, bytes[0] == Self.mark else {
            return nil
        }
        var expected: [UInt8] = []
        Self.appendChecksum(of: bytes.dropLast(4), to: &expected)
        guard bytes.suffix(4).elementsEqual(expected), let key = String(validating: bytes[9..<(bytes.count - 4)], as: UTF8.self)
        else { return nil }
        let digest = bytes[1..<9].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(fingerprint: String(zeroPadded: digest, width: 16, radix: 16), key: key)
    }

    /// Detects edits, not forgery: a cursor only positions a page the client may read anyway.
    private static func appendChecksum(of bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        let checksum = CRC32.checksum(Array(bytes))
        for shift in stride(from: 24, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
    }
}
