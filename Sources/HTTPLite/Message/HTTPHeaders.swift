/// An ordered list of header fields with case-insensitive lookup; repeats are kept.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as it appeared on the wire (name case preserved).
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    private var fields: [Field]

    public init() { fields = [] }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field of this name.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The first value of the named field, if any.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of the named field, in order of appearance.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether the named field holds `token` in its comma-separated list (case-insensitive).
    public func containsToken(_ token: String, in name: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { asciiCaseInsensitiveEquals(trimmingOWS($0), token) }
        }
    }

    static func namesMatch(_ a: String, _ b: String) -> Bool {
        asciiCaseInsensitiveEquals(Substring(a), b)
    }
}

/// Compares ASCII text without regard to case, as header names and tokens require.
func asciiCaseInsensitiveEquals(_ a: Substring, _ b: String) -> Bool {
    let left = a.utf8, right = b.utf8
    guard left.count == right.count else { return false }
    return zip(left, right).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
}

@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}

/// Drops optional white space (SP / HTAB, RFC 9110 §5.6.3) from both ends.
func trimmingOWS(_ text: Substring) -> Substring {
    let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isOWS($0) }),
        let last = text.lastIndex(where: { !isOWS($0) })
    else { return "" }
    return text[first...last]
}
