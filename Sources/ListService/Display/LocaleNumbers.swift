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
            if formattedAmounts.count >= Self.maxRememberedAmounts { formattedAmounts.removeAll(keepingCapacity: true) }
            formattedAmounts[key] = text
            return text
        }

        mutating func count(_ value: Int) -> String {
            if let known = formattedCounts[value] { return known }
            let formatter: NumberFormatter
            if let decimal {
                formatter = decimal
            } else {
                formatter = NumberFormatter()
                formatter.locale = locale
                formatter.numberStyle = .decimal
                decimal = formatter
            }
            let text = formatter.string(from: NSNumber(value: value)) ?? String(value)
            if formattedCounts.count >= Self.maxRememberedCounts { formattedCounts.removeAll(keepingCapacity: true) }
            formattedCounts[value] = text
            return text
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
