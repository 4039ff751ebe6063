/// The request line: method, target (split into decoded path and query) and version (RFC 9112 §3).
struct RequestLine {
    var method: HTTPMethod
    var path: String
    var query: QueryParameters
    var version: HTTPVersion
    /// The authority of an absolute-form target (`GET http://host:port/path`), which stands in
    /// for the `Host` field (RFC 9112 §3.2.2); nil for origin-form.
    var authority: String?

    /// Parses a request line. A query parameter that does not decode is set in `malformedQuery`
    /// (the query is then empty): the request is refused once its head is read, on a
    /// connection that stays usable.
    static func parse(
        _ line: Slice<UnsafeBufferPointer<UInt8>>, malformedQuery: inout MalformedQuery?
    ) -> Result<RequestLine, HTTPError> {
        // Exactly one SP between the three parts; anything else is malformed.
        guard let firstSpace = line.firstIndex(of: HTTPSyntax.space),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: HTTPSyntax.space),
            !line[(secondSpace + 1)...].contains(HTTPSyntax.space)
        else { return .failure(.malformed("The request line must be 'METHOD target HTTP/x.y'.")) }
        let methodBytes = UnsafeBufferPointer(rebasing: line[line.startIndex..<firstSpace])
        let target = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let versionBytes = UnsafeBufferPointer(rebasing: line[(secondSpace + 1)...])

        guard HTTPSyntax.isToken(methodBytes) else {
            return .failure(.malformed("The method is not a valid token."))
        }
        let version: HTTPVersion
        switch parseVersion(versionBytes) {
        case .success(let parsed): version = parsed
        case .failure(let error): return .failure(error)
        }
        guard let method = HTTPMethod(bytes: methodBytes) else {
            return .failure(.unknownMethod(String(decoding: methodBytes, as: UTF8.self)))
        }
        return parseTarget(target, method: method, malformedQuery: &malformedQuery).map { path, query, authority in
            RequestLine(method: method, path: path, query: query, version: version, authority: authority)
        }
    }

    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<HTTPVersion, HTTPError> {
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        // `HTTP/` byte by byte: a generic `elementsEqual` against a string's UTF-8 costs ten times as much.
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
            bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"), isDigit(bytes[5]),
            bytes[6] == UInt8(ascii: "."), isDigit(bytes[7])
        else { return .failure(.malformed("The HTTP version is malformed.")) }
        switch (bytes[5], bytes[7]) {
        case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .success(.http1_1)
        case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .success(.http1_0)
        default: return .failure(.unsupportedVersion)
        }
    }

    /// Accepts origin-form, absolute-form (RFC 9112 §3.2.2) and `*` for OPTIONS.
    private static func parseTarget(
        _ target: UnsafeBufferPointer<UInt8>, method: HTTPMethod, malformedQuery: inout MalformedQuery?
    ) -> Result<(String, QueryParameters, authority: String?), HTTPError> {
        guard !target.isEmpty, HTTPSyntax.isTarget(target) else {
            return .failure(.malformed("The request target is empty or holds a character that must be percent-encoded."))
        }
        if target.count == 1 && target[0] == UInt8(ascii: "*") {
            return method == .options
                ? .success(("*", QueryParameters(), nil))
                : .failure(.malformed("The asterisk target is only for OPTIONS."))
        }
        var originForm = target[...]
        var authority: String?
        if target[0] != UInt8(ascii: "/") {
            guard let (authorityRange, pathStart) = absoluteFormParts(target) else {
                return .failure(.malformed("The request target must start with '/'."))
            }
            let authorityBytes = UnsafeBufferPointer(rebasing: target[authorityRange])
            guard HostSyntax.isValid(authorityBytes), !authorityBytes.isEmpty else {
                return .failure(.malformed("The request target's authority is not a host with an optional port."))
            }
            authority = String(decoding: authorityBytes, as: UTF8.self)
            originForm = target[pathStart...]
            if originForm.isEmpty { return .success(("/", QueryParameters(), authority)) }
        }
        if originForm.contains(UInt8(ascii: "#")) {
            return .failure(.malformed("A request target may not carry a fragment."))
        }
        let questionMark = originForm.firstIndex(of: UInt8(ascii: "?")) ?? originForm.endIndex
        let path: String
        do {
            path = try PercentDecoding.decode(
                UnsafeBufferPointer(rebasing: originForm[..<questionMark]), plusIsSpace: false, keepsEncodedSlash: true)
        } catch {
            return .failure(.malformed("The path holds \(error.phrase)."))
        }
        guard questionMark < originForm.endIndex else { return .success((path, QueryParameters(), authority)) }
        let query = parseQuery(UnsafeBufferPointer(rebasing: originForm[(questionMark + 1)...]), malformed: &malformedQuery)
        return .success((path, query, authority))
    }

    /// Where the authority lies and the path starts in `http://authority/path`, or nil when
    /// the target is not absolute-form.
    private static func absoluteFormParts(_ target: UnsafeBufferPointer<UInt8>) -> (authority: Range<Int>, pathStart: Int)? {
        for scheme in ["http://", "https://"] where target.count >= scheme.utf8.count {
            let prefix = target.prefix(scheme.utf8.count).map(asciiLowercased)
            if prefix.elementsEqual(scheme.utf8) {
                let authorityStart = scheme.utf8.count
                let pathStart =
                    target[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? target.endIndex
                return (authorityStart..<pathStart, pathStart)
            }
        }
        return nil
    }

    /// The query's pairs; none when a parameter's name or value does not decode, the first
    /// such set in `malformed`.
    static func parseQuery(_ query: UnsafeBufferPointer<UInt8>, malformed: inout MalformedQuery?) -> QueryParameters {
        var pairs: [QueryParameters.Pair] = []
        pairs.reserveCapacity(8)
        var start = 0
        while start < query.count {  // the pieces between `&`s, empty ones skipped (no array of them made)
            let end = query[start...].firstIndex(of: UInt8(ascii: "&")) ?? query.count
            let piece = query[start..<end]
            start = end + 1
            guard !piece.isEmpty else { continue }
            let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
            let rawName = UnsafeBufferPointer(rebasing: piece[..<equals])
            let name: String
            do {
                name = try PercentDecoding.decode(rawName, plusIsSpace: true)
            } catch {
                malformed = MalformedQuery(parameter: String(decoding: rawName, as: UTF8.self), isName: true, failure: error)
                return QueryParameters()
            }
            do {
                let value = try PercentDecoding.decode(
                    UnsafeBufferPointer(rebasing: equals < piece.endIndex ? piece[(equals + 1)...] : piece[equals...]),
                    plusIsSpace: true)
                pairs.append(QueryParameters.Pair(name: name, value: value))
            } catch {
                malformed = MalformedQuery(parameter: name, isName: false, failure: error)
                return QueryParameters()
            }
        }
        return QueryParameters(pairs)
    }
}
