import Foundation

/// An opaque keyset cursor: the sort value and id of the last row of a page, plus a
/// fingerprint of the criteria it belongs to. Encoded as base64url text.
public struct PageCursor: Sendable, Hashable {
    public let fingerprint: String
    /// The last row's sort value, as text (cents, milliseconds, or a name).
    public let sortValue: String
    public let id: String

    public init(fingerprint: String, sortValue: String, id: String) {
        self.fingerprint = fingerprint
        self.sortValue = sortValue
        self.id = id
    }

    private static let separator: Character = "\u{1F}"

    public var encoded: String {
        let text = ["1", fingerprint, sortValue, id].joined(separator: String(Self.separator))
        return Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes a cursor; nil for anything this server did not issue.
    public init?(encoded: String) {
        guard encoded.utf8.count <= 2048 else { return nil }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: Self.separator, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "1", !parts[3].isEmpty else { return nil }
        self.init(fingerprint: String(parts[1]), sortValue: String(parts[2]), id: String(parts[3]))
    }
}
