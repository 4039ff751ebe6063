/// Decimal numbers written straight into bytes (response heads, `Server-Timing`): no `String`
/// made on the way.
public enum ASCIIDecimal {
    /// Appends `value` (not negative) in decimal.
    public static func append(_ value: some BinaryInteger, to bytes: inout [UInt8]) {
        var rest = UInt64(value)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64's 20 digits, last first
        withUnsafeMutableBytes(of: &digits) { buffer in
            var count = 0
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// Appends `microseconds` as milliseconds with three decimals (`12.034`).
    public static func appendMilliseconds(microseconds: Int64, to bytes: inout [UInt8]) {
        append(microseconds / 1000, to: &bytes)
        let fraction = microseconds % 1000
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
