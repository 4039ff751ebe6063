import Foundation

/// An exact amount in hundredths of its currency's unit (cents); never binary floating point.
public struct Money: Sendable, Hashable, Comparable {
    public var cents: Int64

    public init(cents: Int64) { self.cents = cents }

    /// Parses decimal text such as `1234.5`; nil for more than two decimal places or overflow.
    public init?(decimalText text: String) {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value.isFinite else { return nil }
        var scaled = value * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        guard rounded == scaled, abs(rounded) < Decimal(Int64.max / 4) else { return nil }
        cents = NSDecimalNumber(decimal: rounded).int64Value
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }
    public static func + (lhs: Money, rhs: Money) -> Money { Money(cents: lhs.cents + rhs.cents) }

    /// The amount as an exact `Decimal`, for formatters.
    public var decimal: Decimal { Decimal(cents) / 100 }

    /// The amount as plain decimal text with two places (`1234.50`).
    public var plainText: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
