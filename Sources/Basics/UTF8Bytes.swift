/// Calls `body` with the string's UTF-8 bytes: in place for a native or small string (every
/// string on Linux: no copy, no retain, unlike `var copy = string; copy.withUTF8`), else from
/// a copy. Inlinable: header names and values pass through it on every request.
@inlinable @inline(__always)
public func withUTF8Bytes<R>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    if let result = try string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return try copy.withUTF8(body)
}
