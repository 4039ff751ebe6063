/// Writes bytes into room counted beforehand (a response head, a `Server-Timing` value): each
/// piece is one copy at a pointer, with no growth check per piece as appending to an array has.
/// Inlinable: other modules write every response head with it.
public struct ByteWriter {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline var written: Int
    /// How many bytes are written.
    @inlinable public var count: Int { written }

    /// Writes into `buffer`, which has room for everything that will be written.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
        written = 0
    }

    /// Writes `bytes`; past the room counted for them is a programming error (it traps).
    @inlinable @inline(__always)
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, let base = buffer.baseAddress, !bytes.isEmpty else { return }
        precondition(written + bytes.count <= buffer.count, "written past the room counted for it")
        UnsafeMutableRawPointer(base + written).copyMemory(from: source, byteCount: bytes.count)
        written += bytes.count
    }

    @inlinable @inline(__always)
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { write(UnsafeRawBufferPointer(bytes)) }

    @inlinable @inline(__always)
    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write($0) }
    }

    @inlinable
    public mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes the UTF-8 bytes of `text` (labelled: a literal then takes the `StaticString`
    /// overload, whose bytes are at hand, and not this one).
    @inlinable
    public mutating func write(contentsOf text: String) {
        withUTF8Bytes(of: text) { write($0) }
    }

    @inlinable @inline(__always)
    public mutating func write(byte: UInt8) {
        precondition(written < buffer.count, "written past the room counted for it")
        buffer[written] = byte
        written += 1
    }

    /// Writes `value` (not negative) in decimal.
    @inlinable
    public mutating func writeDecimal(_ value: Int) {
        ASCIIDecimal.withDigits(of: UInt64(value)) { write($0) }
    }
}
