/// The versions of an item a write may change (from `If-Match`, RFC 9110 §13.1.1), so two
/// front ends cannot overwrite each other blindly.
package struct VersionCondition: Sendable, Equatable {
    private let acceptsAnyVersion: Bool
    private let versions: Set<String>

    /// Any current version (`If-Match: *`): the item must exist.
    package static let anyVersion = VersionCondition(acceptsAnyVersion: true, versions: [])

    /// One of the items whose row tags (the opaque part of a strong ETag, without quotes)
    /// are `rowTags`. A row's tag is `<item version>-<representation>`: only the version is
    /// compared, so a tag read in any locale or time zone matches while the item is unchanged.
    package init(rowTags: [String]) {
        acceptsAnyVersion = false
        versions = Set(rowTags.map { tag in tag.split(separator: "-", maxSplits: 1).first.map(String.init) ?? "" })
    }

    private init(acceptsAnyVersion: Bool, versions: Set<String>) {
        self.acceptsAnyVersion = acceptsAnyVersion
        self.versions = versions
    }

    func admits(_ version: String) -> Bool { acceptsAnyVersion || versions.contains(version) }
}
