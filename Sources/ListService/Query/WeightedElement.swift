/// One element of a header that weighs its elements (RFC 9110 §12.4.2), as `Accept` and
/// `Accept-Language` do: `de-DE;q=0.8, en`.
struct WeightedElement {
    /// The element without its parameters, trimmed: `de-DE`, `text/csv`.
    let value: Substring
    /// Its `q`: 1 when it names none, nil when its `q` is not a number from 0 to 1.
    let quality: Double?

    /// The first `limit` elements of `header`, in order.
    static func list(_ header: String, limit: Int = .max) -> [WeightedElement] {
        header.split(separator: ",").prefix(limit).map { element in
            let parts = element.split(separator: ";", omittingEmptySubsequences: false)
            var quality: Double? = 1
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingWhitespace
                guard pair.count >= 2, pair.first == "q" || pair.first == "Q", pair.dropFirst().first == "=" else { continue }
                quality = Double(pair.dropFirst(2)).flatMap { (0...1).contains($0) ? $0 : nil }
            }
            return WeightedElement(value: parts[0].trimmingWhitespace, quality: quality)
        }
    }
}

extension Substring {
    /// Without the white space around it.
    fileprivate var trimmingWhitespace: Substring {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return self[start...end]
    }
}
