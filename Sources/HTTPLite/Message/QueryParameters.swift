import Basics

/// Query parameters as an ordered multimap: order and repeats are kept as sent.
public struct QueryParameters: Sendable, Hashable, Sequence {
    /// One `name=value` pair, percent-decoded, with `+` read as a space.
    public struct Pair: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var pairs: [Pair]

    public init(_ pairs: [Pair] = []) { self.pairs = pairs }

    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[Pair]> { pairs.makeIterator() }

    /// The first value given for `name`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value given for `name`, in order.
    public func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }
}

extension QueryParameters {
    /// The pairs of a query string (`filter=pending&q=john%20s`), percent-decoded with `+` as a
    /// space, as a request target's are; throws for the first parameter that does not decode.
    public init(parsing query: String) throws(MalformedQuery) {
        var malformed: MalformedQuery?
        let parsed = Array(query.utf8).withUnsafeBufferPointer { RequestLine.parseQuery($0, malformed: &malformed) }
        if let malformed { throw malformed }
        self = parsed
    }
}

/// A query parameter whose name or value is not a valid percent-encoding of UTF-8 text
/// without NUL: a 400 problem naming it (`invalid-parameter`).
public struct MalformedQuery: Error, Sendable, Equatable {
    /// The parameter's name: decoded, or as sent when the name itself does not decode.
    public let parameter: String
    public let detail: String

    init(parameter: String, isName: Bool, failure: PercentDecoding.Failure) {
        self.parameter = parameter
        detail =
            isName
            ? "The name of the query parameter '\(parameter)' holds \(failure.phrase)."
            : "The value of '\(parameter)' holds \(failure.phrase)."
    }

    /// The problem to answer.
    public var httpError: HTTPError {
        HTTPError(.badRequest, code: "invalid-parameter", detail: detail, parameter: parameter)
    }
}
