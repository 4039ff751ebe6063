import Basics
import Foundation

/// An opaque keyset cursor: the sort value and id of the last row of a page, plus a
/// fingerprint of the criteria it belongs to and a checksum of all three, so a cursor edited
/// by hand is refused rather than read. Encoded as base64url text.
package struct PageCursor: Sendable, Hashable {
    package let fingerprint: String
    /// The last row's sort value, as text (cents, milliseconds, or a name).
    package let sortValue: String
    package let id: String

    package init(fingerprint: String, sortValue: String, id: String) {
        self.fingerprint = fingerprint
        self.sortValue = sortValue
        self.id = id
    }

    private static let separator: Character = "\u{1F}"

    package var encoded: String {
        let text = Self.payload(fingerprint, sortValue, id)
        return Base64URL.encode((text + String(Self.separator) + Self.checksum(text)).utf8)
    }

    /// Decodes a cursor; nil for anything this server did not issue.
    package init?(encoded: String) {
        guard encoded.utf8.count <= 2048, let bytes = Base64URL.decode(encoded.utf8), let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: Self.separator, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "2", !parts[3].isEmpty else { return nil }
        let (fingerprint, sortValue, id) = (String(parts[1]), String(parts[2]), String(parts[3]))
        guard parts[4] == Self.checksum(Self.payload(fingerprint, sortValue, id)) else { return nil }
        self.init(fingerprint: fingerprint, sortValue: sortValue, id: id)
    }

    private static func payload(_ fingerprint: String, _ sortValue: String, _ id: String) -> String {
        ["2", fingerprint, sortValue, id].joined(separator: String(separator))
    }

    /// Detects edits, not forgery: a cursor only positions a page the client may read anyway.
    private static func checksum(_ payload: String) -> String {
        String(zeroPadded: CRC32.checksum(Array(payload.utf8)), width: 8, radix: 16)
    }
}
