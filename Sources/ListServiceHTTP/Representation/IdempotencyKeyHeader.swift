import HTTPLite
import ListService
import ListServiceAuth

/// `Idempotency-Key` on a write (draft-ietf-httpapi-idempotency-key-header): a structured
/// string (`"8e03978e-…"`), or the bare token many clients send, of 1 to 255 visible ASCII
/// characters. The same key with the same request is answered once and replayed after; the
/// key belongs to the caller.
enum IdempotencyKeyHeader {
    static let name = "Idempotency-Key"
    /// Marks an answer recorded for an earlier request under the key.
    static let replayed: HTTPHeaders = ["Idempotent-Replayed": "true"]
    static let maxLength = 255

    /// The request's key with its owner and fingerprint (method, path, query, `If-Match`,
    /// body); nil without the header; 400 naming the header for one that is not a key. The
    /// body is hashed here: call it off the event loop for a large body.
    static func keyedRequest(_ request: Request) throws(HTTPError) -> KeyedRequest? {
        guard let key = try key(of: request) else { return nil }
        // Every part length-prefixed (the digest's), the query's pairs counted first: no two requests read the same.
        var parts: [[UInt8]] = [Array(request.method.rawValue.utf8), Array(request.path.utf8), Array("\(request.query.pairs.count)".utf8)]
        for pair in request.query.pairs { parts += [Array(pair.name.utf8), Array(pair.value.utf8)] }
        parts += [Array((request.headers["If-Match"] ?? "").utf8), request.body]
        let fingerprint = SHA256.hex(of: parts)
        return KeyedRequest(caller: request.caller, key: key, fingerprint: fingerprint)
    }

    /// The head check of a write route: 400 for a key that is not one, before the body is
    /// read; then `check`.
    static func checked(_ check: @escaping Router.HeadCheck) -> Router.HeadCheck {
        { (request: Request) throws(HTTPError) in
            _ = try key(of: request)
            try check(request)
        }
    }

    /// The request's key; nil without the header; 400 naming the header for one that is not a key.
    private static func key(of request: Request) throws(HTTPError) -> String? {
        let values = request.headers.values(for: name)
        guard let value = values.first else { return nil }
        guard values.count == 1, let key = key(in: value) else {
            throw HTTPError(
                .badRequest, code: "invalid-idempotency-key",
                detail:
                    "Idempotency-Key must be one key of 1 to \(maxLength) visible ASCII characters, as a quoted string (\"…\") or bare.",
                parameter: name)
        }
        return key
    }

    /// The key in a field value: the content of a structured string (RFC 8941 §3.3.3: `\"` and
    /// `\\` escaped), or a bare run of visible characters; nil for anything else.
    static func key(in value: String) -> String? {
        let bytes = Array(value.utf8)
        var key: [UInt8] = []
        if bytes.first == UInt8(ascii: "\"") {
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "\"") else { return nil }
            var isEscaped = false
            for byte in bytes.dropFirst().dropLast() {
                if isEscaped {
                    guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { return nil }
                    key.append(byte)
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else {
                    guard (0x20...0x7E).contains(byte), byte != UInt8(ascii: "\"") else { return nil }
                    key.append(byte)
                }
            }
            guard !isEscaped else { return nil }
        } else {
            guard bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") }) else { return nil }
            key = bytes
        }
        guard (1...maxLength).contains(key.count) else { return nil }
        return String(decoding: key, as: UTF8.self)
    }
}
