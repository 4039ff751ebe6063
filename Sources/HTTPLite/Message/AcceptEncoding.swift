/// What an `Accept-Encoding` field accepts (RFC 9110 §12.5.3): codings with quality values.
public enum AcceptEncoding {
    /// Whether the request's `Accept-Encoding` fields accept gzip: `gzip` (or `x-gzip`) with a
    /// quality above 0, or, when gzip is not named, `*` with a quality above 0. No field
    /// accepts no coding. Reads the bytes in place: this runs on every request.
    public static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzipQuality: Double?
        var anyQuality: Double?
        for field in headers where HTTPHeaders.namesMatch(field.name, "Accept-Encoding") {
            var elements = field.value.utf8[...]
            while !elements.isEmpty {
                let end = elements.firstIndex(of: UInt8(ascii: ",")) ?? elements.endIndex
                let element = elements[..<end]
                elements = end == elements.endIndex ? elements[end...] : elements[elements.index(after: end)...]
                let nameEnd = element.firstIndex(of: UInt8(ascii: ";")) ?? element.endIndex
                let coding = trimmed(element[..<nameEnd])
                let quality = nameEnd == element.endIndex ? 1 : Self.quality(in: element[element.index(after: nameEnd)...])
                if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") {
                    gzipQuality = max(gzipQuality ?? 0, quality)
                } else if equalsIgnoringCase(coding, "*") {
                    anyQuality = quality
                }
            }
        }
        return (gzipQuality ?? anyQuality ?? 0) > 0
    }

    /// The value of the `q=` parameter among `parameters`; absent or unreadable counts as 1.
    private static func quality(in parameters: Substring.UTF8View) -> Double {
        for parameter in parameters.split(separator: UInt8(ascii: ";")) {
            let pair = trimmed(parameter)
            guard pair.count >= 2, asciiLowercased(pair[pair.startIndex]) == UInt8(ascii: "q"),
                pair[pair.index(after: pair.startIndex)] == UInt8(ascii: "=")
            else { continue }
            guard let value = Double(String(decoding: pair.dropFirst(2), as: UTF8.self)), value >= 0, value <= 1 else { return 1 }
            return value
        }
        return 1
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    private static func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ token: StaticString) -> Bool {
        guard bytes.count == token.utf8CodeUnitCount else { return false }
        return token.withUTF8Buffer { zip(bytes, $0).allSatisfy { asciiLowercased($0) == $1 } }
    }
}
