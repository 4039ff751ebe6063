import Basics

/// An ordered list of header fields with case-insensitive lookup; repeats are kept.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as it appeared on the wire (name case preserved).
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    private var fields: [Field]

    public init() { fields = [] }

    /// No fields yet, with room for `capacity` of them (a request's head, an answer's headers).
    public init(reservingCapacity capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Makes room for `capacity` fields in all.
    public mutating func reserveCapacity(_ capacity: Int) { fields.reserveCapacity(capacity) }

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
        guard self[name] != nil else { return }  // the usual case, found without rewriting the fields
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The first value of the named field, if any (a dozen lookups per request, half of them
    /// for fields the request does not have).
    public subscript(name: String) -> String? {
        for index in fields.indices where Self.namesMatch(fields[index].name, name) {
            return fields[index].value
        }
        return nil
    }

    /// Every value of the named field, in order of appearance.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Calls `body` with every value of the named field, in order, without making an array of them.
    func forEachValue(of name: String, _ body: (String) -> Void) {
        for index in fields.indices where Self.namesMatch(fields[index].name, name) {
            body(fields[index].value)
        }
    }

    /// Whether the named field holds `token` in its comma-separated list (case-insensitive).
    /// Every response asks this of `Connection`: no array of values is made.
    public func containsToken(_ token: String, in name: String) -> Bool {
        fields.indices.contains { index in
            Self.namesMatch(fields[index].name, name)
                && fields[index].value.split(separator: ",").contains { asciiCaseInsensitiveEquals(trimmingOWS($0), token) }
        }
    }

    /// Whether two field names are one name. Every lookup runs it over the fields (in place,
    /// no field copied), and most are not the one looked for: lengths are compared inline (a
    /// string knows its own) before a call compares the bytes.
    @inline(__always)
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && asciiCaseInsensitiveEquals(a, b)
    }
}

/// Compares ASCII text without regard to case, as header names and tokens require: lengths
/// first (a native string knows its own), then the same spelling (how clients and this code
/// mostly write a name; two short strings compare as two words), then the bytes in place.
func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    if a == b { return true }
    return withUTF8Bytes(of: a) { left in withUTF8Bytes(of: b) { right in asciiCaseInsensitiveEquals(left, right) } }
}

/// Compares ASCII text without regard to case.
func asciiCaseInsensitiveEquals(_ a: Substring, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { left in b.withUTF8 { right in asciiCaseInsensitiveEquals(left, right) } }
}

/// Compares ASCII bytes without regard to case.
func asciiCaseInsensitiveEquals(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
    guard left.count == right.count else { return false }
    for index in left.indices where asciiLowercased(left[index]) != asciiLowercased(right[index]) { return false }
    return true
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
