/// JSON string literals (RFC 8259 §7), the one definition of their escaping.
public enum JSONString {
    /// Appends `value` as a JSON string literal: its bytes in runs between the few that need
    /// escaping (quote, backslash, controls), found eight at a time, each run copied at once.
    /// Most strings have none, and a page writes hundreds of them.
    @inlinable
    public static func append(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        withUTF8Bytes(of: value) { appendEscaping($0, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `first` followed by `second` as one JSON string literal, without joining them
    /// into a new string first.
    @inlinable
    public static func append(_ first: String, _ second: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        withUTF8Bytes(of: first) { appendEscaping($0, to: &bytes) }
        withUTF8Bytes(of: second) { appendEscaping($0, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `utf8`, escaped, without quotes: eight bytes at a time past words with nothing to
    /// escape, a byte at a time where a word has something.
    @inlinable
    static func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        guard let base = utf8.baseAddress else { return }
        var runStart = 0, index = 0
        while index < utf8.count {
            if index + 8 <= utf8.count, !needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                appendEscape(of: byte, to: &bytes)
                runStart = index + 1
            }
            index += 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: utf8.count - runStart))
    }

    /// Whether any of a word's eight bytes needs escaping: one below 0x20, a quote or a
    /// backslash (Bit Twiddling Hacks' hasless and haszero, exact about whether there is one).
    @inlinable
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highs != 0
    }

    /// The escape of one byte that needs one.
    @usableFromInline
    static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        }
    }

    /// `value` as a standalone JSON string literal.
    public static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
