import Foundation
import Basics

/// The formatters for one display context, made once and reused. Foundation's formatters are
/// not documented as thread-safe, so each set is used under its own lock.
package final class DisplayFormatters: Sendable {
    package let context: DisplayContext
    private let state: Locked<Formatting>

    package init(context: DisplayContext) {
        self.context = context
        let locale = Locale(identifier: context.localeTag.replacingOccurrences(of: "-", with: "_"))
        func dateFormatter(time: DateFormatter.Style) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = TimeZone(identifier: context.timeZoneIdentifier) ?? TimeZone(identifier: "UTC")
            formatter.dateStyle = .medium
            formatter.timeStyle = time
            return formatter
        }
        state = Locked(
            Formatting(
                locale: locale, mediumDate: dateFormatter(time: .none), mediumDateTime: dateFormatter(time: .short),
                decimalSeparator: locale.decimalSeparator ?? "."))
    }

    /// Runs `body` with exclusive use of the formatters.
    package func withFormatters<T>(_ body: (inout Formatting) -> T) -> T {
        state.withLock { body(&$0) }
    }

    /// Exclusive use of one formatter set: a medium date formatter and one currency formatter
    /// per currency met so far. Amounts repeat (prices times small quantities) and many rows
    /// share a day, so formatted text is remembered, up to a bound.
    package struct Formatting {
        let locale: Locale
        let mediumDate: DateFormatter
        let mediumDateTime: DateFormatter
        let decimalSeparator: String
        var currency: [String: NumberFormatter] = [:]
        var decimal: NumberFormatter?
        var formattedAmounts: [AmountKey: String] = [:]
        var formattedDays: [Int64: String] = [:]
        /// The client's calendar day as a page last worked it out, reused while it lasts
        /// (finding it costs a calendar computation; a live change formats rows in a hundred zones).
        var currentDay: Range<Date>?
        /// Formatters for date templates (`EEEEMMMMd`), made on first use, and what they wrote.
        var templated: [String: DateFormatter] = [:]
        var formattedTemplates: [TemplateKey: String] = [:]

        struct TemplateKey: Hashable {
            let template: String
            let date: Date
        }

        /// An amount in its currency: hashed as two integers (a currency's code hashed as text
        /// was most of a cold row's formatting cost).
        struct AmountKey: Hashable {
            let currency: Currency
            let cents: Int64
        }

        static let maxRememberedAmounts = 50_000

        package mutating func money(_ amount: Money, currency: Currency) -> String {
            let key = AmountKey(currency: currency, cents: amount.cents)
            if let known = formattedAmounts[key] { return known }
            let text = format(amount, currency: currency.rawValue)
            if formattedAmounts.count >= Self.maxRememberedAmounts { formattedAmounts.removeAll(keepingCapacity: true) }
            formattedAmounts[key] = text
            return text
        }

        /// A count with the locale's grouping (`2,987`, `2.987`).
        package mutating func count(_ value: Int) -> String {
            let formatter: NumberFormatter
            if let decimal {
                formatter = decimal
            } else {
                formatter = NumberFormatter()
                formatter.locale = locale
                formatter.numberStyle = .decimal
                decimal = formatter
            }
            return formatter.string(from: NSNumber(value: value)) ?? String(value)
        }

        /// Medium date and short time in the client's zone (`Nov 2, 2026 at 2:31 PM`).
        package func mediumDateTime(_ date: Date) -> String { mediumDateTime.string(from: date) }

        /// A number rounded to one decimal with the locale's separator (`4.3`, `4,3`).
        /// (Foundation's NumberFormatter on Linux ignores the fraction-digit limits here.)
        package func oneDecimal(_ value: Double) -> String {
            let tenths = Int64((value * 10).rounded())
            let sign = tenths < 0 ? "-" : ""
            return "\(sign)\(tenths.magnitude / 10)\(decimalSeparator)\(tenths.magnitude % 10)"
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

        /// `date` in the locale's own pattern for `template` (`EEEEMMMMd`: "Monday, November 23",
        /// "Montag, 23. November"), in the client's zone.
        /// Remembered per template and instant (section headings repeat on every page).
        package mutating func date(_ date: Date, template: String) -> String {
            let key = TemplateKey(template: template, date: date)
            if let known = formattedTemplates[key] { return known }
            let formatter: DateFormatter
            if let known = templated[template] {
                formatter = known
            } else {
                formatter = DateFormatter()
                formatter.locale = locale
                formatter.timeZone = mediumDate.timeZone
                formatter.setLocalizedDateFormatFromTemplate(template)
                templated[template] = formatter
            }
            let text = formatter.string(from: date)
            if formattedTemplates.count >= Self.maxRememberedAmounts { formattedTemplates.removeAll(keepingCapacity: true) }
            formattedTemplates[key] = text
            return text
        }

        /// The medium date, remembered per local calendar day (finding the day is cheap;
        /// formatting is not).
        package mutating func mediumDate(_ date: Date) -> String {
            let day = mediumDate.timeZone.localDay(of: date)
            if let known = formattedDays[day] { return known }
            let text = mediumDate.string(from: date)
            if formattedDays.count >= Self.maxRememberedAmounts { formattedDays.removeAll(keepingCapacity: true) }
            formattedDays[day] = text
            return text
        }
    }
}

/// Formatter sets by display context, bounded so odd locales cannot grow memory without end.
/// Making a set costs ICU formatters (about a millisecond), so the bound sits well above the
/// contexts in use at once: 100 watched lists in 100 locale and zone pairs made 64 thrash.
package final class FormatterCache: Sendable {
    private let cache: Locked<LRUCache<DisplayContext, DisplayFormatters>>
    /// Counts as written per locale: the same few numbers are shown by every zone's lists, and
    /// a live change brings them to a hundred lists at once.
    private let countTexts = Locked<[String: [Int: String]]>([:])

    static let maxRememberedCounts = 4_096
    static let maxRememberedLocales = 512

    package init(capacity: Int = 512) { cache = Locked(LRUCache(capacity: capacity)) }

    /// `values` with the grouping of `display`'s locale ("2,987", "2.987"), each formatted
    /// once per locale while remembered.
    package func counts(_ values: [Int], display: DisplayContext) -> [String] {
        let known = countTexts.withLock { texts in
            let locale = texts[display.localeTag]
            return values.map { locale?[$0] }
        }
        guard known.contains(nil) else { return known.map { $0 ?? "" } }
        let made = formatters(for: display).withFormatters { formatting in
            zip(values, known).map { value, text in text ?? formatting.count(value) }
        }
        countTexts.withLock { texts in
            var locale = texts.removeValue(forKey: display.localeTag) ?? [:]
            if locale.count + values.count > Self.maxRememberedCounts { locale.removeAll(keepingCapacity: true) }
            for (value, text) in zip(values, made) { locale[value] = text }
            if texts.count >= Self.maxRememberedLocales { texts.removeAll() }
            texts[display.localeTag] = locale
        }
        return made
    }

    package func formatters(for context: DisplayContext) -> DisplayFormatters {
        cache.withLock { cache in
            if let existing = cache[context] { return existing }
            let made = DisplayFormatters(context: context)
            cache[context] = made
            return made
        }
    }
}
