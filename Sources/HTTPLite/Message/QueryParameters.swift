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
    /// space, as a request target's are; nil for an invalid percent-encoding.
    public init?(parsing query: String) {
        let bytes = Array(query.utf8)
        guard let parsed = bytes.withUnsafeBufferPointer({ RequestLine.parseQuery($0) }) else { return nil }
        self = parsed
    }
}
