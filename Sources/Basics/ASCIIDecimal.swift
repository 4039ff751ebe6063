/// Decimal numbers written straight into bytes (response heads, `Server-Timing`): no `String`
/// made on the way.
public enum ASCIIDecimal {
    /// Calls `body` with the decimal digits of `value`, written last first into room on the
    /// stack (not generic, no `String`, inlinable: every response head writes two numbers).
    @inlinable
    public static func withDigits<R>(of value: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var rest = value
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64's 20 digits
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }
}
