/// The media ranges an `Accept` header names, each with its weight (RFC 9110 §12.5.1):
/// `text/csv;q=0.5, application/*, */*;q=0.1`. A range whose syntax or weight is broken is
/// left out, as the RFC lets a server do; a header with no range left names no preference.
struct AcceptedMediaTypes {
    private var ranges: [(type: Substring, subtype: Substring, quality: Double)] = []

    init(_ header: String) {
        for element in header.lowercased().split(separator: ",") {
            let parts = element.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingOWS }
            let range = parts[0].split(separator: "/", omittingEmptySubsequences: false)
            guard range.count == 2, !range[0].isEmpty, !range[1].isEmpty, range[0] != "*" || range[1] == "*" else { continue }
            var quality = 1.0
            var isValid = true
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                guard let weight = Self.weight(parameter.dropFirst(2)) else {
                    isValid = false
                    break
                }
                quality = weight
            }
            if isValid { ranges.append((range[0], range[1], quality)) }
        }
    }

    /// Whether the header named no range at all (then every type is as good).
    var isEmpty: Bool { ranges.isEmpty }

    /// The weight of `type/subtype` (lowercase): that of the most specific range matching it,
    /// 0 when none does.
    func quality(of type: String, _ subtype: String) -> Double {
        var best: (specificity: Int, quality: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
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

    /// `0` to `1` with at most three decimals (`qvalue`); nil otherwise.
    private static func weight(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            whole == "0" || fraction.allSatisfy({ $0 == "0" })
        else { return nil }
        return whole == "1" ? 1 : Double("0." + fraction + "0")
    }
}

extension Substring {
    /// Without the spaces and tabs around it (HTTP's optional white space).
    fileprivate var trimmingOWS: Substring {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isOWS($0) }), let end = lastIndex(where: { !isOWS($0) }) else { return "" }
        return self[start...end]
    }
}
