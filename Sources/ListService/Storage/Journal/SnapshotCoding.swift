import Foundation

/// Writes items in the binary snapshot format: integers as LEB128 varints (signed ones
/// zigzagged), doubles as their bits, and text either inline (unique values: ids, titles) or
/// as an index into a table of distinct strings written once (names, cities, currencies),
/// so a load creates each repeated string once.
package struct SnapshotWriter {
    private(set) var body: [UInt8] = []
    private var tableIndex: [String: Int] = [:]
    private(set) var table: [String] = []

    init(reservingCapacity capacity: Int) { body.reserveCapacity(capacity) }

    /// The bytes written so far, handed over; the writer goes on with an empty body of the
    /// same capacity and the same table.
    mutating func takeBody() -> [UInt8] {
        var taken: [UInt8] = []
        taken.reserveCapacity(body.capacity)
        swap(&taken, &body)
        return taken
    }

    package mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            body.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        body.append(UInt8(rest))
    }

    package mutating func int(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    package mutating func int(_ value: Int) { int(Int64(value)) }
    package mutating func bool(_ value: Bool) { body.append(value ? 1 : 0) }
    package mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { body.append(contentsOf: $0) }
    }

    /// Bytes with their length before them.
    package mutating func data(_ value: some Collection<UInt8>) {
        unsigned(UInt64(value.count))
        body.append(contentsOf: value)
    }

    /// Text stored where it is: for values that rarely repeat.
    package mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { data($0) }
    }

    /// Text stored once in the table, referred to by its index: for values that repeat.
    package mutating func sharedText(_ value: String) {
        if let index = tableIndex[value] {
            unsigned(UInt64(index))
        } else {
            tableIndex[value] = table.count
            unsigned(UInt64(table.count))
            table.append(value)
        }
    }
}

/// Reads what `SnapshotWriter` wrote, bounds-checked: a short or malformed body throws, never
/// reads past the end.
package struct SnapshotReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int
    private let table: [String]
    /// The format the snapshot was written in: a reader reads an older one's items as they were.
    package let formatVersion: UInt32

    init(_ bytes: UnsafeRawBufferPointer, table: [String], formatVersion: UInt32 = SnapshotFile.formatVersion) {
        self.bytes = bytes
        self.table = table
        self.formatVersion = formatVersion
        offset = 0
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == bytes.count }
    /// How many bytes were read.
    var bytesRead: Int { offset }

    package mutating func unsigned() throws(SnapshotFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw SnapshotFormatError(offset: offset, reason: "a number runs past the end")
    }

    package mutating func int64() throws(SnapshotFormatError) -> Int64 {
        let raw = try unsigned()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    package mutating func int<Integer: FixedWidthInteger>(_ type: Integer.Type = Int.self) throws(SnapshotFormatError) -> Integer {
        let value = try int64()
        guard let result = Integer(exactly: value) else { throw SnapshotFormatError(offset: offset, reason: "\(value) is out of range") }
        return result
    }

    package mutating func bool() throws(SnapshotFormatError) -> Bool {
        guard offset < bytes.count, bytes[offset] <= 1 else { throw SnapshotFormatError(offset: offset, reason: "expected a flag") }
        offset += 1
        return bytes[offset - 1] == 1
    }

    package mutating func double() throws(SnapshotFormatError) -> Double {
        guard bytes.count - offset >= 8 else { throw SnapshotFormatError(offset: offset, reason: "a number runs past the end") }
        let bits = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: UInt64(littleEndian: bits))
    }

    /// Bytes as `data(_:)` wrote them, in place (valid as long as the snapshot's bytes are).
    package mutating func data() throws(SnapshotFormatError) -> UnsafeRawBufferPointer {
        let count = try unsigned()
        guard count <= UInt64(bytes.count - offset) else { throw SnapshotFormatError(offset: offset, reason: "data runs past the end") }
        let start = offset
        offset += Int(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    }

    package mutating func text() throws(SnapshotFormatError) -> String { String(decoding: try data(), as: UTF8.self) }

    package mutating func sharedText() throws(SnapshotFormatError) -> String {
        let index = try unsigned()
        guard index < UInt64(table.count) else { throw SnapshotFormatError(offset: offset, reason: "no shared text \(index)") }
        return table[Int(index)]
    }

    /// A value of a closed set by its raw text (a status).
    package mutating func choice<T: RawRepresentable>(_ type: T.Type) throws(SnapshotFormatError) -> T where T.RawValue == String {
        let raw = try sharedText()
        guard let value = T(rawValue: raw) else { throw SnapshotFormatError(offset: offset, reason: "'\(raw)' is not a \(T.self)") }
        return value
    }
}

/// A snapshot whose checksum held but whose contents do not read as this build writes them.
package struct SnapshotFormatError: Error, CustomStringConvertible, Sendable {
    let offset: Int
    let reason: String
    package var description: String { "at byte \(offset) of the items: \(reason)" }
}
