import Basics

/// The cursor of a section of a grouped list (`sections[].cursor`): it names the section by
/// its key, so it opens a page at the section's first row wherever that row now is, and stays
/// valid as long as the section exists. It carries nothing else: a section's key means the
/// same in every list grouped the same way, and the page is read within the caller's own list
/// (a key it does not hold is a 400). A page carries one for every section of its list, so
/// it is short: a day's is 15 characters, where a row's cursor takes 68.
package struct SectionCursor: Sendable, Hashable {
    package let key: String

    package init(key: String) { self.key = key }

    /// The first byte of every section cursor; a row's cursor (`PageCursor`) starts otherwise.
    private static let mark = UInt8(ascii: "S")

    /// base64url of the mark and the key.
    package var encoded: String { Base64URL.encode([Self.mark] + Array(key.utf8)) }

    /// Decodes a section cursor; nil for anything else (a row's cursor, text that is no cursor).
    package init?(encoded: String) {
        guard encoded.utf8.count <= 512, let bytes = Base64URL.decode(encoded.utf8), bytes.count > 1, bytes[0] == Self.mark,
            let key = String(validating: bytes.dropFirst(), as: UTF8.self)
        else { return nil }
        self.init(key: key)
    }
}
