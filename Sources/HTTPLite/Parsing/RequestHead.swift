import Basics

/// A parsed request head with its message framing already decided (RFC 9112 §6).
struct RequestHead {
    /// How the body, if any, is delimited.
    enum Framing: Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    var method: HTTPMethod
    var version: HTTPVersion
    var path: String
    var query: QueryParameters
    var headers: HTTPHeaders
    var framing: Framing
    var expectsContinue: Bool

    func makeRequest(body: [UInt8]) -> Request {
        Request(method: method, path: path, query: query, headers: headers, body: body, version: version)
    }
}

extension RequestHead {
    /// Parses the head's bytes, request line to the last header line, without the final CRLF CRLF.
    /// A query parameter that does not decode is set in `malformedQuery` (the head's query is
    /// then empty): kept beside the head, not in it, as a head is moved with every parser step.
    static func parse(
        _ head: UnsafeBufferPointer<UInt8>, limits: HTTPLimits, malformedQuery: inout MalformedQuery?
    ) -> Result<RequestHead, HTTPError> {
        var lines = HeadLines(head)
        guard let requestLine = lines.next() else { return .failure(.malformed("The request line is empty.")) }
        let parsedLine: RequestLine
        switch RequestLine.parse(requestLine, malformedQuery: &malformedQuery) {
        case .success(let line): parsedLine = line
        case .failure(let error): return .failure(error)
        }
        var headers = HTTPHeaders(reservingCapacity: 16)
        var framingFields = FramingFields()
        while let line = lines.next() {
            guard headers.count < limits.maxHeaderCount else { return .failure(.tooManyHeaders) }
            guard let first = line.first, !HTTPSyntax.isOWS(first) else {
                return .failure(.malformed("Obsolete line folding is not accepted (RFC 9112 §5.2)."))
            }
            guard let colon = line.firstIndex(of: HTTPSyntax.colon) else {
                return .failure(.malformed("A header line has no colon."))
            }
            let name = UnsafeBufferPointer(rebasing: line[..<colon])
            guard HTTPSyntax.isToken(name) else {
                return .failure(.malformed("A header name is empty or holds a character a token may not (RFC 9112 §5.1)."))
            }
            var valueStart = colon + 1, valueEnd = line.endIndex
            while valueStart < valueEnd, HTTPSyntax.isOWS(line[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, HTTPSyntax.isOWS(line[valueEnd - 1]) { valueEnd -= 1 }
            let value = UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd])
            guard HTTPSyntax.isFieldValue(value) else {
                return .failure(.malformed("A header value holds a control character."))
            }
            let field = HTTPHeaders.Field(
                name: UsualFieldNames.name(spelled: name) ?? String(decoding: name, as: UTF8.self),
                value: String(decoding: value, as: UTF8.self))
            if let error = framingFields.note(field) { return .failure(error) }
            headers.add(name: field.name, value: field.value)
        }
        // An absolute-form target's authority is the host the request names; its Host field is ignored.
        if let authority = parsedLine.authority { headers.replaceOrAdd(name: "Host", value: authority) }
        return framingFields.framing(version: parsedLine.version).map { framing in
            RequestHead(
                method: parsedLine.method, version: parsedLine.version, path: parsedLine.path,
                query: parsedLine.query, headers: headers, framing: framing,
                expectsContinue: framingFields.expectsContinue)
        }
    }
}

/// Splits a head into lines at LF, dropping the CR before it (the scanner has already
/// rejected bare LFs); a stray CR stays in the line and fails validation.
private struct HeadLines {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard position < bytes.count else { return nil }
        guard let lf = RequestParser.firstLF(in: bytes, from: position) else {
            defer { position = bytes.count }
            return bytes[position...]
        }
        defer { position = lf + 1 }
        return bytes[position..<(lf - 1)]
    }
}

/// The header fields that decide framing and connection handling, checked as they arrive.
private struct FramingFields {
    var contentLength: Int?
    /// Whether a Transfer-Encoding field was present at all, even an empty one.
    var hasTransferEncoding = false
    var transferCodings: [Substring] = []
    var hostCount = 0
    var authorizationCount = 0
    var originCount = 0
    var expectsContinue = false

    mutating func note(_ field: HTTPHeaders.Field) -> HTTPError? {
        let name = field.name
        // Most fields are none of these: a name is compared only with the one of its length and first letter.
        let (length, initial) = (name.utf8.count, asciiLowercased(name.utf8.first ?? 0))
        if (length, initial) == (14, UInt8(ascii: "c")) && asciiCaseInsensitiveEquals(name, "content-length") {
            // A list of identical values is tolerated (RFC 9112 §6.3); differing ones are smuggling.
            for element in field.value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = trimmingOWS(element)
                guard !digits.isEmpty, digits.utf8.count <= 15, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    let length = Int(digits)
                else { return .malformed("Content-Length must be a non-negative integer.") }
                if let known = contentLength, known != length {
                    return .malformed("Conflicting Content-Length values.")
                }
                contentLength = length
            }
        } else if (length, initial) == (17, UInt8(ascii: "t")) && asciiCaseInsensitiveEquals(name, "transfer-encoding") {
            hasTransferEncoding = true
            transferCodings += field.value.split(separator: ",").map(trimmingOWS).filter { !$0.isEmpty }
        } else if (length, initial) == (4, UInt8(ascii: "h")) && asciiCaseInsensitiveEquals(name, "host") {
            hostCount += 1
            guard withUTF8Bytes(of: field.value, HostSyntax.isValid) else {
                return .malformed("The Host header is not a host with an optional port (RFC 9110 §7.2).")
            }
        } else if (length, initial) == (13, UInt8(ascii: "a")) && asciiCaseInsensitiveEquals(name, "authorization") {
            // Credentials and origins are single values: which of two would count is ambiguous.
            authorizationCount += 1
            guard authorizationCount == 1 else { return .malformed("The Authorization header may appear only once.") }
        } else if (length, initial) == (6, UInt8(ascii: "o")) && asciiCaseInsensitiveEquals(name, "origin") {
            originCount += 1
            guard originCount == 1 else { return .malformed("The Origin header may appear only once.") }
        } else if (length, initial) == (6, UInt8(ascii: "e")) && asciiCaseInsensitiveEquals(name, "expect") {
            guard asciiCaseInsensitiveEquals(field.value, "100-continue") else {
                return .unsupportedExpectation
            }
            expectsContinue = true
        }
        return nil
    }

    func framing(version: HTTPVersion) -> Result<RequestHead.Framing, HTTPError> {
        if version == .http1_1 && hostCount != 1 {
            return .failure(.malformed("An HTTP/1.1 request must carry exactly one Host header (RFC 9112 §3.2)."))
        }
        if hasTransferEncoding {
            // Any Transfer-Encoding field, even an empty one, conflicts with Content-Length:
            // a front proxy may read the message differently (request smuggling).
            guard contentLength == nil else {
                return .failure(.malformed("Content-Length and Transfer-Encoding together are rejected (RFC 9112 §6.1)."))
            }
            guard !transferCodings.isEmpty else { return .failure(.malformed("Transfer-Encoding names no coding.")) }
            guard version == .http1_1 else {
                return .failure(.malformed("Transfer-Encoding is not allowed in an HTTP/1.0 request."))
            }
            guard transferCodings.allSatisfy({ asciiCaseInsensitiveEquals($0, "chunked") }) else {
                return .failure(.unsupportedTransferCoding)
            }
            guard transferCodings.count == 1 else {
                return .failure(.malformed("The chunked coding may be applied only once."))
            }
            return .success(.chunked)
        }
        guard let length = contentLength, length > 0 else { return .success(.none) }
        return .success(.contentLength(length))  // its size is judged after the head screen (`RequestParser`)
    }
}
