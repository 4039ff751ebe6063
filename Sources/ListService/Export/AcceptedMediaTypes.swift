/// The media ranges an `Accept` header names, each with its weight (RFC 9110 §12.5.1):
/// `text/csv;q=0.5, application/*, */*;q=0.1`. A range whose syntax or weight is broken is
/// left out, as the RFC lets a server do; a header with no range left names no preference.
struct AcceptedMediaTypes {
    private var ranges: [(type: Substring, subtype: Substring, quality: Double)] = []

    init(_ header: String) {
        for element in WeightedElement.list(header.lowercased()) {
            let range = element.value.split(separator: "/", omittingEmptySubsequences: false)
            guard let quality = element.quality, range.count == 2, !range[0].isEmpty, !range[1].isEmpty,
                range[0] != "*" || range[1] == "*"
            else { continue }
            ranges.append((range[0], range[1], quality))
        }
    }

    /// Whether the header named no range at all (then every type is as good).
    var isEmpty: Bool { ranges.isEmpty }

    /// The weight of `mediaType` (`text/csv`, lowercase): that of the most specific range
    /// matching it, 0 when none does.
    func quality(of mediaType: String) -> Double {
        let parts = mediaType.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return 0 }
        var best: (specificity: Int, quality: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == parts[0] && range.subtype == parts[1] {
                specificity = 2
            } else if range.type == parts[0] && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" {
                specificity = 0
            } else {
                continue
            }
            if specificity > best?.specificity ?? -1 { best = (specificity, range.quality) }
        }
        return best?.quality ?? 0
    }
}
