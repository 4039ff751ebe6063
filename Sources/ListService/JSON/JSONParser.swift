/// A strict RFC 8259 parser over UTF-8 bytes: no trailing commas, comments, NaN or duplicate
/// member names (RFC 8259 §4 leaves their meaning open, so two readers could disagree). Limits
/// on depth and on the number of values bound the stack and the tree a hostile body can cost.
package struct JSONParser {
    /// Where and why parsing stopped.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let offset: Int
        package let reason: String
        package var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// How much a document may hold.
    package struct Limits: Sendable {
        /// Deepest nesting of arrays and objects.
        package var maxDepth: Int
        /// Most values in the whole document (members, elements and the values within them).
        package var maxValues: Int

        package init(maxDepth: Int, maxValues: Int) {
            self.maxDepth = maxDepth
            self.maxValues = maxValues
        }

        /// The service's own files and journal records: trusted sizes, any number of values.
        package static let files = Limits(maxDepth: 256, maxValues: .max)
        /// A request body: shallow and small, so its tree costs a small multiple of its bytes.
        package static let requestBody = Limits(maxDepth: 32, maxValues: 20_000)
    }

    package static func parse(_ bytes: [UInt8], limits: Limits = .files) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONValue in
            var parser = JSONParser(bytes: buffer, limits: limits)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.position == buffer.count else { throw parser.failure("unexpected data after the document") }
            return value
        }
    }

    /// Calls `body` with each element of a top-level array, one at a time, so a large file
    /// never exists as one tree in memory.
    package static func forEachElement(
        ofArrayIn bytes: UnsafeRawBufferPointer, _ body: (JSONValue) throws -> Void
    ) throws {
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: .files)
        parser.skipWhitespace()
        guard parser.current == UInt8(ascii: "[") else { throw parser.failure("expected a JSON array") }
        _ = try parser.streamElements(depth: 1) { element in
            try body(element)
            return true
        }
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected data after the document") }
    }

    /// How a run of array elements ended (see `elementRun`).
    package enum RunEnd: Equatable, Sendable {
        /// The next element starts exactly at the boundary.
        case reachedBoundary
        /// The array closed and only whitespace follows it.
        case endOfDocument
        /// An element started past the boundary: the boundary was not an element's start.
        case missedBoundary
    }

    /// Parses elements of a top-level array from `start` (the first byte of an element) until
    /// the next element would start at or past `boundary`, or the array ends. Speculative
    /// parallel loading runs one of these per part of a file; only a run whose start the run
    /// before it reached exactly is kept, so a boundary guessed wrong costs time, not
    /// correctness. `body` gets each element and the offset just past it.
    package static func elementRun(
        in bytes: UnsafeRawBufferPointer, from start: Int, boundary: Int, _ body: (JSONValue, Int) throws -> Void
    ) throws -> RunEnd {
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: .files)
        parser.position = start
        while true {
            parser.valueCount = 0
            let element = try parser.parseValue(depth: 1)
            try body(element, parser.position)
            parser.skipWhitespace()
            guard let separator = parser.current else { throw parser.failure("unterminated array") }
            parser.position += 1
            if separator == UInt8(ascii: "]") {
                parser.skipWhitespace()
                guard parser.position == bytes.count else { throw parser.failure("unexpected data after the document") }
                return .endOfDocument
            }
            guard separator == UInt8(ascii: ",") else { throw parser.failure("expected ',' or ']' in an array") }
            parser.skipWhitespace()
            if parser.position == boundary { return .reachedBoundary }
            if parser.position > boundary { return .missedBoundary }
        }
    }

    /// Where the first element of a top-level array starts; nil for an empty array or a
    /// document that is not an array (the sequential parse reports it).
    package static func firstElementStart(in bytes: UnsafeRawBufferPointer) -> Int? {
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: .files)
        parser.skipWhitespace()
        guard parser.current == UInt8(ascii: "[") else { return nil }
        parser.position += 1
        parser.skipWhitespace()
        return parser.current == nil || parser.current == UInt8(ascii: "]") ? nil : parser.position
    }

    /// The value that starts at `offset` (to look at a guessed element start).
    package static func value(in bytes: UnsafeRawBufferPointer, at offset: Int) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: .files)
        parser.position = offset
        return try parser.parseValue(depth: 1)
    }

    /// A possible start of an object element at or after `offset`: the `{` of the first `}`,
    /// `,`, `{` sequence (whitespace between), which may as well be inside a string or a
    /// nested array. Only a guess; `elementRun` proves or refutes it.
    package static func likelyElementStart(in bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: .files)
        parser.position = offset
        while parser.position < bytes.count {
            guard parser.bytes[parser.position] == UInt8(ascii: "}") else {
                parser.position += 1
                continue
            }
            parser.position += 1
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: ",") else { continue }
            parser.position += 1
            parser.skipWhitespace()
            if parser.current == UInt8(ascii: "{") { return parser.position }
        }
        return nil
    }

    /// Walks a top-level object member by member: the elements of the array member named
    /// `arrayMember` go to `element` one at a time (each parsed with `elementLimits`, then
    /// dropped), every other member's value to `member`. A feed of many megabytes never exists
    /// as one tree. `element` returns false to stop early. Returns whether the object held
    /// `arrayMember` as an array.
    @discardableResult
    package static func forEachElement(
        ofArrayMember arrayMember: String, inObject bytes: UnsafeRawBufferPointer, elementLimits: Limits,
        member: (String, JSONValue) throws -> Void, element: (JSONValue) throws -> Bool
    ) throws -> Bool {
        var foundArray = false
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: elementLimits)
        parser.skipWhitespace()
        guard parser.current == UInt8(ascii: "{") else { throw parser.failure("expected a JSON object") }
        parser.position += 1
        var seen = Set<String>()
        parser.skipWhitespace()
        if parser.current == UInt8(ascii: "}") {
            parser.position += 1
        } else {
            members: while true {
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: "\"") else { throw parser.failure("expected a member name in quotes") }
                let key = try parser.parseString()
                guard seen.insert(key).inserted else { throw parser.failure("the member name '\(key.prefix(64))' appears twice") }
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: ":") else { throw parser.failure("expected ':' after a member name") }
                parser.position += 1
                parser.skipWhitespace()
                if key == arrayMember && parser.current == UInt8(ascii: "[") {
                    foundArray = true
                    guard try parser.streamElements(depth: 2, element) else { return true }
                } else {
                    parser.valueCount = 0
                    try member(key, try parser.parseValue(depth: 1))
                }
                parser.skipWhitespace()
                guard let separator = parser.current else { throw parser.failure("unterminated object") }
                parser.position += 1
                if separator == UInt8(ascii: "}") { break members }
                guard separator == UInt8(ascii: ",") else { throw parser.failure("expected ',' or '}' in an object") }
            }
        }
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected data after the document") }
        return foundArray
    }

    /// Hands each element of the array at the current position (nested `depth` deep) to
    /// `body`, each with a fresh value count; false when `body` asked to stop.
    private mutating func streamElements(depth: Int, _ body: (JSONValue) throws -> Bool) throws -> Bool {
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return true
        }
        while true {
            skipWhitespace()
            valueCount = 0
            guard try body(try parseValue(depth: depth)) else { return false }
            skipWhitespace()
            guard let separator = current else { throw failure("unterminated array") }
            position += 1
            if separator == UInt8(ascii: "]") { return true }
            guard separator == UInt8(ascii: ",") else { throw failure("expected ',' or ']' in an array") }
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: Limits
    private var position = 0
    private var valueCount = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth < limits.maxDepth else { throw failure("nesting deeper than \(limits.maxDepth)") }
        valueCount += 1
        guard valueCount <= limits.maxValues else { throw failure("more than \(limits.maxValues) values") }
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure(unexpected)
        }
    }

    /// Names what stands where a value should start: a printable ASCII character as itself,
    /// another character by its code point too (a control character by its code point alone),
    /// a byte order mark by name, and a byte that starts no UTF-8 as a byte. (A body is UTF-8,
    /// RFC 8259 §8.1: its first byte read alone, as before, named `é` as `Ã`.)
    private var unexpected: String {
        var remaining = bytes[position...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&remaining) else {
            return "unexpected byte 0x" + String(bytes[position], radix: 16, uppercase: true) + " (the body is not UTF-8)"
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let codePoint = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch scalar.value {
        case 0xFEFF: return "unexpected byte order mark (\(codePoint)); send the JSON without one"
        case 0x21...0x7E: return "unexpected character '\(scalar)'"
        case 0...0x20, 0x7F...0x9F: return "unexpected character \(codePoint)"
        default: return "unexpected character '\(scalar)' (\(codePoint))"
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
            UnsafeBufferPointer(start: literal.utf8Start, count: count).elementsEqual(bytes[position..<(position + count)])
        else { throw failure("invalid literal") }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONObject {
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen: Set<String>?
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return JSONObject(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let keyOffset = position
            let key = try parseString()
            // A scan for the usual few members; a set once an object grows large.
            let isDuplicate: Bool
            if members.count < 16 {
                isDuplicate = members.contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                isDuplicate = seen?.insert(key).inserted == false
            }
            if isDuplicate {
                throw Failure(offset: keyOffset, reason: "the member name '\(key.prefix(64))' appears twice")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return JSONObject(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> [JSONValue] {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(Failure) -> JSONNumber {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            let begin = parser.position
            while let byte = parser.current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { parser.position += 1 }
            return parser.position - begin
        }
        if current == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw failure("a number needs digits") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw failure("a number may not have leading zeros") }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw failure("a fraction needs digits") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw failure("an exponent needs digits") }
        }
        return JSONNumber(text: String(decoding: bytes[start..<position], as: UTF8.self))
    }

    private mutating func parseString() throws(Failure) -> String {
        position += 1
        let start = position
        var isASCII = true
        // Fast path: no escapes, so the bytes are the string (validated as UTF-8 below).
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw failure("a control character must be escaped in a string") }
            isASCII = isASCII && byte < 0x80
            position += 1
        }
        guard let stop = current else { throw failure("unterminated string") }
        if stop == UInt8(ascii: "\"") {
            let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
            position += 1  // closing quote
            if isASCII { return String(decoding: text, as: UTF8.self) }  // ASCII is valid UTF-8
            guard let string = String(validating: text, as: UTF8.self) else { throw failure("a string is not valid UTF-8") }
            return string
        }
        var scalars = [UInt8](bytes[start..<position])
        try parseEscapedRemainder(into: &scalars)
        position += 1  // closing quote
        guard let string = String(validating: scalars, as: UTF8.self) else { throw failure("a string is not valid UTF-8") }
        return string
    }

    private mutating func parseEscapedRemainder(into output: inout [UInt8]) throws(Failure) {
        while let byte = current, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20 else { throw failure("a control character must be escaped in a string") }
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                position += 1
                continue
            }
            position += 1
            guard let escape = current else { break }
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"): output.append(contentsOf: try parseUnicodeEscape())
            default: throw failure("invalid escape sequence")
            }
        }
        guard current != nil else { throw failure("unterminated string") }
    }

    /// `\uXXXX`, with surrogate pairs joined; a lone surrogate is an error.
    private mutating func parseUnicodeEscape() throws(Failure) -> [UInt8] {
        let high = try parseHex4()
        var value = UInt32(high)
        if (0xD800...0xDBFF).contains(high) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw failure("a high surrogate must be followed by a low surrogate") }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid low surrogate") }
            value = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(high) {
            throw failure("a lone low surrogate")
        }
        guard let scalar = Unicode.Scalar(value), value != 0 else { throw failure("invalid \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseHex4() throws(Failure) -> UInt16 {
        guard position + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt16 = 0
        for byte in bytes[position..<(position + 4)] {
            guard let digit = hexDigitValue(byte) else { throw failure("a \\u escape needs four hex digits") }
            value = value << 4 | UInt16(digit)
        }
        position += 4
        return value
    }
}

func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
