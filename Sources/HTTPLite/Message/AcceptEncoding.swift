/// What an `Accept-Encoding` field accepts (RFC 9110 §12.5.3): codings with quality values.
public enum AcceptEncoding {
    /// Whether the field values accept gzip: `gzip` (or `x-gzip`) with a quality above 0, or,
    /// when gzip is not named, `*` with a quality above 0. No field accepts no coding.
    public static func acceptsGzip(_ values: [String]) -> Bool {
        var gzipQuality: Double?
        var anyQuality: Double?
        for value in values {
            for element in value.split(separator: ",") {
                let parts = element.split(separator: ";")
                guard let first = parts.first else { continue }
                let coding = trimmingOWS(first)
                let quality = parts.dropFirst().lazy.compactMap(Self.quality).first ?? 1
                if asciiCaseInsensitiveEquals(coding, "gzip") || asciiCaseInsensitiveEquals(coding, "x-gzip") {
                    gzipQuality = max(gzipQuality ?? 0, quality)
                } else if coding == "*" {
                    anyQuality = quality
                }
            }
        }
        return (gzipQuality ?? anyQuality ?? 0) > 0
    }

    /// The value of a `q=` parameter; an unreadable one counts as 1, as if absent.
    private static func quality(_ parameter: Substring) -> Double? {
        let pair = trimmingOWS(parameter).split(separator: "=", maxSplits: 1)
        guard pair.count == 2, asciiCaseInsensitiveEquals(pair[0], "q") else { return nil }
        guard let value = Double(pair[1]), value >= 0, value <= 1 else { return 1 }
        return value
    }
}
