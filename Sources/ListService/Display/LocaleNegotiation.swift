import Foundation

/// Picks the client's locale from `locale=` or `Accept-Language` (RFC 9110 §12.5.4) among
/// the locales Foundation can format for; anything unknown falls back to `en-US`.
package enum LocaleNegotiation {
    package static let fallback = "en-US"
    private static let available = Set(Locale.availableIdentifiers)

    /// The BCP 47 tag (`de-DE`) of the best supported locale.
    package static func negotiate(explicit: String?, acceptLanguage: String?) -> String {
        if let explicit { return supportedTag(explicit) ?? fallback }
        guard let acceptLanguage else { return fallback }
        let ranges = WeightedElement.list(acceptLanguage, limit: 32).enumerated().compactMap { index, element in
            element.value.isEmpty ? nil : (tag: String(element.value), quality: element.quality ?? 1, index: index)
        }
        let preferred = ranges.filter { $0.quality > 0 }.sorted { ($0.quality, -$0.index) > ($1.quality, -$1.index) }
        for range in preferred where range.tag != "*" {
            if let tag = supportedTag(range.tag) { return tag }
        }
        return fallback
    }

    /// `de-de` or `de_DE` → `de-DE` when Foundation knows it (or its language alone).
    static func supportedTag(_ tag: String) -> String? {
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).prefix(3)
        guard let language = subtags.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter) else { return nil }
        let canonical = subtags.enumerated().map { index, subtag -> String in
            if index == 0 { return subtag.lowercased() }
            if subtag.count == 4 { return subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased() }
            return subtag.uppercased()
        }
        for length in stride(from: canonical.count, through: 1, by: -1) {
            let candidate = canonical.prefix(length)
            if available.contains(candidate.joined(separator: "_")) { return candidate.joined(separator: "-") }
        }
        return nil
    }
}
