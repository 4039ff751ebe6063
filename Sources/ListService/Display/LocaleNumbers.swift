import Foundation
import Basics

/// A locale's numbers as written: amounts in each currency ("$1,234.50", "1.234,50 €") and
/// counts with its grouping ("2,987", "2.987"), each formatted once and remembered up to a
/// bound. They do not depend on the time zone, so the formatter cache gives one set to every
/// zone's formatters of a locale: a live change shows the same new total in a hundred lists
/// over twenty zones, and a NumberFormatter call costs thousands of instructions. Foundation's
/// formatters are not documented as thread-safe, so the set is used under its own lock.
package final class LocaleNumbers: Sendable {
    private let state: Locked<State>

    package init(locale: Locale) { state = Locked(State(locale: locale)) }

    /// An amount in its currency, in the locale's currency format.
    package func money(_ amount: Money, currency: Currency) -> String {
        state.withLock { $0.money(amount, currency: currency) }
    }

    /// A count with the locale's grouping.
    package func count(_ value: Int) -> String {
        state.withLock { $0.count(value) }
    }

    /// Several counts under one lock.
    package func counts(_ values: [Int]) -> [String] {
        state.withLock { state in values.map { state.count($0) } }
    }

    private struct State {
        let locale: Locale
        var currency: [String: NumberFormatter] = [:]
        var decimal: NumberFormatter?
        /// How the decimal formatter groups digits, where it was found to group plainly.
        var grouping: DigitGrouping?
        var formattedAmounts: [AmountKey: String] = [:]
        var formattedCounts: [Int: String] = [:]

        /// An amount in its currency: hashed as two integers (a currency's code hashed as text
        /// was most of a cold row's formatting cost).
        struct AmountKey: Hashable {
            let currency: Currency
            let cents: Int64
        }

        static let maxRememberedAmounts = 50_000
        static let maxRememberedCounts = 4_096

        init(locale: Locale) { self.locale = locale }

        mutating func money(_ amount: Money, currency: Currency) -> String {
            let key = AmountKey(currency: currency, cents: amount.cents)
            if let known = formattedAmounts[key] { return known }
            let text = format(amount, currency: currency.rawValue)
            formattedAmounts.remember(text, for: key, upTo: Self.maxRememberedAmounts)
            return text
        }

        mutating func count(_ value: Int) -> String {
            if let known = formattedCounts[value] { return known }
            let formatter = decimalFormatter()
            let text: String
            if value >= 0, let grouping {
                text = grouping.format(value)
            } else {
                text = formatter.string(from: NSNumber(value: value)) ?? String(value)
            }
            formattedCounts.remember(text, for: value, upTo: Self.maxRememberedCounts)
            return text
        }

        /// The locale's decimal formatter, made on first use, with the grouping it was found to write.
        private mutating func decimalFormatter() -> NumberFormatter {
            if let decimal { return decimal }
            let formatter = NumberFormatter()
            formatter.locale = locale
            formatter.numberStyle = .decimal
            decimal = formatter
            grouping = DigitGrouping(writtenLike: formatter)
            return formatter
        }

        private mutating func format(_ amount: Money, currency code: String) -> String {
            let formatter: NumberFormatter
            if let cached = currency[code] {
                formatter = cached
            } else {
                formatter = NumberFormatter()
                formatter.locale = locale
                formatter.numberStyle = .currency
                formatter.currencyCode = code
                currency[code] = formatter
            }
            return formatter.string(from: NSDecimalNumber(decimal: amount.decimal)) ?? "\(code) \(amount.plainText)"
        }
    }
}

/// Counts written as a locale's decimal format writes them, without a formatter call: ASCII
/// digits with one separator every three ("2,987", "2.987", "1 234 567"). Only for a locale
/// whose formatter was found to write exactly that, on numbers of every length up to ten
/// digits; others (four digits left whole, as in Spanish and Polish; digits of another script,
/// as in Arabic; a grouping of two after the first three, where ICU's data has it) keep their
/// formatter.
struct DigitGrouping {
    private let separator: [UInt8]

    private init(separator: [UInt8]) { self.separator = separator }

    /// The grouping `formatter` writes, if it is plain.
    init?(writtenLike formatter: NumberFormatter) {
        let grouping = DigitGrouping(separator: Array((formatter.groupingSeparator ?? "").utf8))
        for sample in Self.samples where formatter.string(from: NSNumber(value: sample)) != grouping.format(sample) { return nil }
        self = grouping
    }

    /// Numbers of every length from one to ten digits, and the edges of each group.
    static let samples = [
        0, 7, 42, 999, 1_000, 2_987, 9_999, 10_000, 12_345, 99_999, 100_000, 123_456, 999_999, 1_000_000, 1_234_567, 12_345_678,
        123_456_789, 1_234_567_890,
    ]

    /// `value` (not negative) with the separator between groups of three digits.
    func format(_ value: Int) -> String {
        ASCIIDecimal.withDigits(of: UInt64(value.magnitude)) { digits in
            var text: [UInt8] = []
            text.reserveCapacity(digits.count + digits.count / 3 * separator.count)
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { text += separator }
                text.append(digit)
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
