/// Decimal numbers written straight into bytes (response heads, `Server-Timing`): no `String`
/// made on the way.
public enum ASCIIDecimal {
    /// Appends `value` (not negative) in decimal.
    public static func append(_ value: some BinaryInteger, to bytes: inout [UInt8]) {
        guard value >= 10 else { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
        append(value / 10, to: &bytes)
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Appends `microseconds` as milliseconds with three decimals (`12.034`).
    public static func appendMilliseconds(microseconds: Int64, to bytes: inout [UInt8]) {
        append(microseconds / 1000, to: &bytes)
        let fraction = microseconds % 1000
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: [UInt8(fraction / 100), UInt8(fraction / 10 % 10), UInt8(fraction % 10)].map { UInt8(ascii: "0") + $0 })
    }
}
