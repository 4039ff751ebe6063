import Basics

/// What an `Accept-Encoding` field accepts (RFC 9110 §12.5.3): codings with quality values.
public enum AcceptEncoding {
    /// Whether the request's `Accept-Encoding` fields accept gzip: `gzip` (or `x-gzip`) with a
    /// quality above 0, or, when gzip is not named, `*` with a quality above 0. No field
    /// accepts no coding. Reads the bytes in place: this runs on every request.
    public static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzipQuality: Double?
        var anyQuality: Double?
        headers.forEachValue(of: "Accept-Encoding") { value in
            withUTF8Bytes(of: value) { bytes in
                var start = 0
                while start <= bytes.count {
                    let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                    let element = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    start = end + 1
                    let nameEnd = element.firstIndex(of: UInt8(ascii: ";")) ?? element.count
                    let coding = trimmed(UnsafeBufferPointer(rebasing: element[..<nameEnd]))
                    let quality = nameEnd == element.count ? 1 : Self.quality(in: UnsafeBufferPointer(rebasing: element[(nameEnd + 1)...]))
                    if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") {
                        gzipQuality = max(gzipQuality ?? 0, quality)
                    } else if equalsIgnoringCase(coding, "*") {
                        anyQuality = quality
                    }
                }
            }
        }
        return (gzipQuality ?? anyQuality ?? 0) > 0
    }

    /// The value of the `q=` parameter among `parameters`; absent or unreadable counts as 1.
    private static func quality(in parameters: UnsafeBufferPointer<UInt8>) -> Double {
        for parameter in parameters.split(separator: UInt8(ascii: ";")) {
            let pair = trimmed(UnsafeBufferPointer(rebasing: parameter))
            guard pair.count >= 2, asciiLowercased(pair[0]) == UInt8(ascii: "q"), pair[1] == UInt8(ascii: "=") else { continue }
            guard let value = Double(String(decoding: pair.dropFirst(2), as: UTF8.self)), value >= 0, value <= 1 else { return 1 }
            return value
        }
        return 1
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var first = 0, end = bytes.count
        while first < end, HTTPSyntax.isOWS(bytes[first]) { first += 1 }
        while end > first, HTTPSyntax.isOWS(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[first..<end])
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ token: StaticString) -> Bool {
        token.withUTF8Buffer { asciiCaseInsensitiveEquals(bytes, $0) }
    }
}
