import Basics
/// Appends JSON to a byte buffer without intermediate strings; the caller supplies structure.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    private var needsComma = false

    package init(reservingCapacity capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// The bytes written, in a buffer of their own size when the one written into is more
    /// than twice as large (and over 1 KB larger): a row written into a page-sized reserve
    /// (4 KB for 100 bytes) and then kept, as a keyed write's answer is for a day, must not
    /// keep the reserve.
    package var compactedBytes: [UInt8] {
        guard bytes.capacity - bytes.count > max(1024, bytes.count) else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = bytes.withUnsafeBufferPointer { buffer.initialize(from: $0).1 }
        }
    }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    package mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    package mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes one member whose value is `value` as 16 lowercase hex digits, in quotes.
    package mutating func field(_ name: StaticString, hexDigits value: UInt64) {
        key(name)
        let digits: StaticString = "0123456789abcdef"
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18) { quoted in
            quoted[0] = UInt8(ascii: "\"")
            for index in 0..<16 { quoted[1 + index] = digits.utf8Start[Int((value >> UInt64(60 - 4 * index)) & 15)] }
            quoted[17] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeBufferPointer(quoted))
        }
        needsComma = true
    }

    /// Writes a member name; the next value call writes its value.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes one member: `"name":value`.
    package mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    package mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        optionalString(value)
    }

    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    /// A number member; nil (an unknown magnitude, say) is written as null.
    package mutating func field(_ name: StaticString, _ value: Double?) {
        key(name)
        if let value { number(value) } else { null() }
    }

    /// A number member given as exact decimal text (money).
    package mutating func field(_ name: StaticString, decimalText: String) {
        key(name)
        number(text: decimalText)
    }

    /// Writes a member name known only at run time.
    package mutating func key(_ name: String) {
        separate()
        JSONString.append(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func string(_ value: String) {
        separate()
        JSONString.append(value, to: &bytes)
        needsComma = true
    }

    /// `first` and `second` as one string value (a label and its amount), not joined first.
    package mutating func string(_ first: String, _ second: String) {
        separate()
        JSONString.append(first, second, to: &bytes)
        needsComma = true
    }

    package mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    package mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        ASCIIDecimal.withDigits(of: UInt64(value.magnitude)) { bytes.append(contentsOf: $0) }  // no string made
        needsComma = true
    }

    /// A finite number in its shortest round-tripping form; non-finite values become null.
    package mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        bytes.append(contentsOf: value.description.utf8)
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// A number given as its exact decimal text (money: `1234.50`).
    package mutating func number(text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// Writes already-encoded JSON (a cached row, say) as one value.
    package mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Appends bytes as they are, without a separator: the rest of a document made elsewhere,
    /// its commas and closing brackets included (a page's shared end, `PageTail`).
    package mutating func appendVerbatim(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Ends a line of NDJSON: the next value starts a document of its own.
    package mutating func endLine() {
        bytes.append(0x0A)
        needsComma = false
    }

    /// Empties the writer, keeping its buffer for the next document.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
