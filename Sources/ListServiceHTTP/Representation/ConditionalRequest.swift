import HTTPLite
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
    /// `W/"…"` never matches; `*` admits any). Nil for no condition (absent or empty). A value
    /// that is not entity tags (a version sent without its quotes) is a 400 naming the header:
    /// as a 412 it would send the client to fetch the item again and fail the same way.
    static func ifMatch(_ header: String?) throws(HTTPError) -> VersionCondition? {
        guard let header else { return nil }
        let tags = entityTags(header)
        guard !tags.isEmpty else { return nil }
        if tags.contains("*") { return .anyVersion }
        var versions: [String] = []
        for tag in tags {
            let isWeak = tag.hasPrefix("W/")
            let opaque = isWeak ? tag.dropFirst(2) : Substring(tag)
            guard opaque.count >= 2, opaque.first == "\"", opaque.last == "\"" else { throw .invalidIfMatch }
            if !isWeak { versions.append(String(opaque.dropFirst().dropLast())) }
        }
        return VersionCondition(rowTags: versions)
    }

    private static func entityTags(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: [" ", "\t"]) }.filter { !$0.isEmpty }
    }
}
