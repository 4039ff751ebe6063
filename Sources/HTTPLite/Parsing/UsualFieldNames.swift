import Glibc

/// The header names clients send most, as they usually spell them: a request's field whose
/// name is spelled exactly so takes the constant string instead of a new one made from its
/// bytes (which costs a validation and a copy per field, a dozen fields a browser request).
/// Any other spelling is kept as sent, as every name is.
enum UsualFieldNames {
    static func name(spelled bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 4: if bytes.spells("Host") { return "Host" }
        case 6:
            if bytes.spells("Accept") { return "Accept" }
            if bytes.spells("Origin") { return "Origin" }
            if bytes.spells("Cookie") { return "Cookie" }
        case 7: if bytes.spells("Referer") { return "Referer" }
        case 10:
            if bytes.spells("User-Agent") { return "User-Agent" }
            if bytes.spells("Connection") { return "Connection" }
        case 11: if bytes.spells("traceparent") { return "traceparent" }
        case 12:
            if bytes.spells("X-Session-ID") { return "X-Session-ID" }
            if bytes.spells("Content-Type") { return "Content-Type" }
        case 13:
            if bytes.spells("Authorization") { return "Authorization" }
            if bytes.spells("If-None-Match") { return "If-None-Match" }
            if bytes.spells("Cache-Control") { return "Cache-Control" }
        case 14: if bytes.spells("Content-Length") { return "Content-Length" }
        case 15:
            if bytes.spells("Accept-Encoding") { return "Accept-Encoding" }
            if bytes.spells("Accept-Language") { return "Accept-Language" }
        default: break
        }
        return nil
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `text`'s (same case).
    fileprivate func spells(_ text: StaticString) -> Bool {
        text.withUTF8Buffer { spelled in
            guard spelled.count == count, let expected = spelled.baseAddress, let actual = baseAddress else { return false }
            return memcmp(expected, actual, count) == 0
        }
    }
}
