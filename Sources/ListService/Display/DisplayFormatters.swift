import Foundation
import Basics

/// The formatters for one display context, made once and reused. Foundation's formatters are
/// not documented as thread-safe, so each set is used under its own lock.
package final class DisplayFormatters: Sendable {
    package let context: DisplayContext
    private let state: Locked<Formatting>

    /// `numbers`: the locale's amounts and counts, shared by every zone's set of a locale (a
    /// set of its own when not given).
    package init(context: DisplayContext, numbers: LocaleNumbers? = nil) {
        self.context = context
        let locale = Self.locale(of: context)
        let timeZone = context.timeZone
        func dateFormatter(time: DateFormatter.Style) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = timeZone
            formatter.dateStyle = .medium
            formatter.timeStyle = time
            return formatter
        }
        state = Locked(
            Formatting(
                locale: locale, timeZone: timeZone, numbers: numbers ?? LocaleNumbers(locale: locale),
                mediumDate: dateFormatter(time: .none),
                mediumDateTime: dateFormatter(time: .short), decimalSeparator: locale.decimalSeparator ?? "."))
    }

    /// Foundation's locale for a context's BCP 47 tag.
    static func locale(of context: DisplayContext) -> Locale {
        Locale(identifier: context.localeTag.replacingOccurrences(of: "-", with: "_"))
    }

    /// Runs `body` with exclusive use of the formatters.
    package func withFormatters<T>(_ body: (inout Formatting) -> T) -> T {
        state.withLock { body(&$0) }
    }

    /// Exclusive use of one formatter set: medium date formatters, the locale's numbers, and
    /// date template formatters. Many rows share a day, so formatted text is remembered, up to
    /// a bound.
    package struct Formatting {
        let locale: Locale
        /// The client's zone, found once (a lookup by name costs more than a row's other fields).
        let timeZone: TimeZone
        let numbers: LocaleNumbers
        let mediumDate: DateFormatter
        let mediumDateTime: DateFormatter
        let decimalSeparator: String
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

        static let maxRememberedDates = 50_000

        /// An amount in its currency, in the locale's currency format.
        package func money(_ amount: Money, currency: Currency) -> String { numbers.money(amount, currency: currency) }

        /// A count with the locale's grouping (`2,987`, `2.987`).
        package func count(_ value: Int) -> String { numbers.count(value) }

        /// Medium date and short time in the client's zone (`Nov 2, 2026 at 2:31 PM`).
        package func mediumDateTime(_ date: Date) -> String { mediumDateTime.string(from: date) }

        /// A number rounded to one decimal with the locale's separator (`4.3`, `4,3`).
        /// (Foundation's NumberFormatter on Linux ignores the fraction-digit limits here.)
        package func oneDecimal(_ value: Double) -> String {
            let tenths = Int64((value * 10).rounded())
            let sign = tenths < 0 ? "-" : ""
            return "\(sign)\(tenths.magnitude / 10)\(decimalSeparator)\(tenths.magnitude % 10)"
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
                formatter.timeZone = timeZone
                formatter.setLocalizedDateFormatFromTemplate(template)
                templated[template] = formatter
            }
            let text = formatter.string(from: date)
            formattedTemplates.remember(text, for: key, upTo: Self.maxRememberedDates)
            return text
        }

        /// The medium date, remembered per local calendar day (finding the day is cheap;
        /// formatting is not).
        package mutating func mediumDate(_ date: Date) -> String {
            let day = timeZone.localDay(of: date)
            if let known = formattedDays[day] { return known }
            let text = mediumDate.string(from: date)
            formattedDays.remember(text, for: day, upTo: Self.maxRememberedDates)
            return text
        }
    }
}

/// Formatter sets by display context, bounded so odd locales cannot grow memory without end.
/// Making a set costs ICU formatters (about a millisecond), so the bound sits well above the
/// contexts in use at once: 100 watched lists in 100 locale and zone pairs made 64 thrash.
package final class FormatterCache: Sendable {
    private let cache: Locked<LRUCache<DisplayContext, DisplayFormatters>>
    /// Amounts and counts as written, per locale: the same numbers show in every zone's lists.
    private let numbers: Locked<LRUCache<String, LocaleNumbers>>

    package init(capacity: Int = 512) {
        cache = Locked(LRUCache(capacity: capacity))
        numbers = Locked(LRUCache(capacity: capacity))
    }

    /// `values` with the grouping of `display`'s locale ("2,987", "2.987"), each formatted
    /// once per locale while remembered.
    package func counts(_ values: [Int], display: DisplayContext) -> [String] {
        numbers(for: display).counts(values)
    }

    package func formatters(for context: DisplayContext) -> DisplayFormatters {
        Self.value(for: context, in: cache) { DisplayFormatters(context: context, numbers: numbers(for: context)) }
    }

    /// The numbers of `context`'s locale.
    private func numbers(for context: DisplayContext) -> LocaleNumbers {
        Self.value(for: context.localeTag, in: numbers) { LocaleNumbers(locale: DisplayFormatters.locale(of: context)) }
    }

    /// The value `cache` keeps under `key`, else one made outside its lock (ICU formatters take
    /// about a millisecond to make; other contexts are served meanwhile) and kept, unless
    /// another thread kept one first.
    private static func value<Key, Value>(for key: Key, in cache: Locked<LRUCache<Key, Value>>, make: () -> Value) -> Value {
        if let existing = cache.withLock({ $0[key] }) { return existing }
        let made = make()
        return cache.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = made
            return made
        }
    }
}
