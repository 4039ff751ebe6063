import Foundation

/// An exact amount in hundredths of its currency's unit (cents); never binary floating point.
package struct Money: Sendable, Hashable, Comparable {
    package var cents: Int64

    package init(cents: Int64) { self.cents = cents }

    /// Why decimal text is not an amount.
    package enum ParseFailure: Error {
        /// More than two decimal places (`1.005`, `1e-400`).
        case tooPrecise
        /// More than an amount holds (`1e400`, thirty digits).
        case tooLarge
        case notANumber
    }

    /// Parses decimal text such as `1234.5` or `1e2`.
    package init(parsing text: String) throws(ParseFailure) {
        if let cents = Self.plainCents(text) {
            self.cents = cents
            return
        }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value.isFinite else {
            // Past Decimal's range: too large, or a fraction too small to be a cent.
            guard let approximate = Double(text) else { throw .notANumber }
            throw approximate.magnitude >= 1 ? .tooLarge : .tooPrecise
        }
        var scaled = value * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        guard rounded == scaled else { throw .tooPrecise }
        guard abs(rounded) < Decimal(Int64.max / 4) else { throw .tooLarge }
        cents = NSDecimalNumber(decimal: rounded).int64Value
    }

    /// The common form `-?digits(.d{1,2})?` without Foundation; nil sends other forms to `Decimal`.
    private static func plainCents(_ text: String) -> Int64? {
        var utf8 = text.utf8[...]
        let isNegative = utf8.first == UInt8(ascii: "-")
        if isNegative { utf8 = utf8.dropFirst() }
        var whole: Int64 = 0, fraction: Int64 = 0, fractionDigits = 0, wholeDigits = 0, seenPoint = false
        for byte in utf8 {
            if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else if byte >= 48 && byte <= 57 {
                if seenPoint {
                    fractionDigits += 1
                    guard fractionDigits <= 2 else { return nil }
                    fraction = fraction * 10 + Int64(byte - 48)
                } else {
                    wholeDigits += 1
                    guard wholeDigits <= 15 else { return nil }
                    whole = whole * 10 + Int64(byte - 48)
                }
            } else {
                return nil
            }
        }
        guard wholeDigits > 0, !seenPoint || fractionDigits > 0 else { return nil }
        let cents = whole * 100 + (fractionDigits == 1 ? fraction * 10 : fraction)
        return isNegative ? -cents : cents
    }

    package static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }
    package static func + (lhs: Money, rhs: Money) -> Money { Money(cents: lhs.cents + rhs.cents) }

    /// The amount as an exact `Decimal`, for formatters.
    package var decimal: Decimal { Decimal(cents) / 100 }

    /// The amount as plain decimal text with two places (`1234.50`).
    package var plainText: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
