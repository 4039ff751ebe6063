import ListService

/// The conditional request headers (RFC 9110 §13.1): `If-None-Match` on reads, `If-Match` on
/// writes.
enum ConditionalRequest {
    /// Whether an `If-None-Match` value names the body whose ETag is `etag`, in either coding
    /// (its gzip coding's tag is `Compression.gzipETag(etag)`): §13.1.2, weak comparison, `*` matches.
    static func ifNoneMatch(_ header: String?, matchesEitherCodingOf etag: String) -> Bool {
        guard let header else { return false }
        let gzipTag = Compression.gzipETag(etag)
        return entityTags(header).contains { tag in
            let opaque = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            return tag == "*" || opaque == etag || opaque == gzipTag
        }
    }

    /// The versions an `If-Match` value admits (§13.1.1: strong comparison, so a weak tag
    /// `W/"…"` never matches; `*` admits any). Nil for no condition (absent or empty).
    static func ifMatch(_ header: String?) -> VersionCondition? {
        guard let header else { return nil }
        let tags = entityTags(header)
        guard !tags.isEmpty else { return nil }
        if tags.contains("*") { return .anyVersion }
        return VersionCondition(
            rowTags: tags.compactMap { tag in
                tag.count >= 2 && tag.first == "\"" && tag.last == "\"" ? String(tag.dropFirst().dropLast()) : nil
            })
    }

    private static func entityTags(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: [" ", "\t"]) }.filter { !$0.isEmpty }
    }
}
