import Glibc

/// The members of a flat JSON object as our `JSONWriter` wrote it (a row: strings, numbers,
/// booleans and nulls, no nesting, no whitespace), read in place: how an export turns the
/// very rows a list serves into CSV cells without parsing them into values.
struct FlatJSONObject {
    /// One member: where its name's bytes and its value's bytes lie (a string's without its
    /// quotes, still escaped).
    struct Member {
        let name: Range<Int>
        let value: Range<Int>
        let isString: Bool
        let isNull: Bool
    }

    private(set) var members: [Member] = []

    /// Reads the members of the object `bytes` holds; false if it is not a flat object.
    mutating func read(_ bytes: [UInt8]) -> Bool {
        members.removeAll(keepingCapacity: true)
        var index = 0
        guard bytes.first == UInt8(ascii: "{") else { return false }
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
            if bytes[index] == UInt8(ascii: ",") { index += 1 }
            guard let name = Self.string(in: bytes, at: index), name.upperBound + 1 < bytes.count,
                bytes[name.upperBound + 1] == UInt8(ascii: ":")
            else { return false }
            index = name.upperBound + 2
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "\"") {
                guard let value = Self.string(in: bytes, at: index) else { return false }
                members.append(Member(name: name, value: value, isString: true, isNull: false))
                index = value.upperBound + 1
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}") { index += 1 }
                let isNull = bytes[start..<index].elementsEqual("null".utf8)
                members.append(Member(name: name, value: start..<index, isString: false, isNull: isNull))
            }
        }
        return index < bytes.count
    }

    /// The index of the member named `name` (UTF-8), if the object has one; `hint`, where it
    /// is likely (rows write their members in their columns' order), is tried first.
    func index(of name: [UInt8], in bytes: [UInt8], hint: Int) -> Int? {
        if hint < members.count, Self.equal(bytes, members[hint].name, name) { return hint }
        return members.indices.first { Self.equal(bytes, members[$0].name, name) }
    }

    private static func equal(_ bytes: [UInt8], _ range: Range<Int>, _ name: [UInt8]) -> Bool {
        guard range.count == name.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            name.withUnsafeBufferPointer { name in
                guard let base = bytes.baseAddress, let other = name.baseAddress else { return name.isEmpty }
                return memcmp(base + range.lowerBound, other, name.count) == 0
            }
        }
    }

    /// Appends a string member's value with its escapes decoded, as UTF-8.
    static func appendDecoded(_ value: Range<Int>, of bytes: [UInt8], to out: inout [UInt8]) {
        var index = value.lowerBound
        while index < value.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < value.upperBound else {
                out.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(bytes, at: index, end: value.upperBound) else { continue }
                index += 4
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= value.upperBound, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(bytes, at: index + 2, end: value.upperBound),
                    (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: out.append(escaped)  // `"`, `\`, `/`
            }
        }
    }

    /// Where the string starting with the quote at `start` lies, without its quotes.
    private static func string(in bytes: [UInt8], at start: Int) -> Range<Int>? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return (start + 1)..<index
            default: index += 1
            }
        }
        return nil
    }

    private static func hex4(_ bytes: [UInt8], at start: Int, end: Int) -> UInt32? {
        guard start + 4 <= end else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
