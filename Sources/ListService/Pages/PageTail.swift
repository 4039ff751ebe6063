/// The end of page bodies that many pages share (a grouped list's sections, every one of the
/// whole list, made once per list, grouping and display): its bytes, which a page sends
/// where they are instead of copying them into its own body, and their digest, which a
/// page's ETag takes instead of hashing them again.
final class PageTail: Sendable {
    /// The page's last members and its closing brace, starting with a comma.
    let bytes: [UInt8]
    let digest: UInt64

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        digest = ETag.bodyDigest(bytes)
    }
}
