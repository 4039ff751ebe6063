import Foundation
import Testing

@testable import ListService

/// Golden strings in several locales. Foundation puts U+00A0 before a trailing currency sign.
@Suite struct DisplayFormattingTests {
    private func money(_ text: String, _ currency: String, _ locale: String) -> String {
        DisplayFormatters(context: DisplayContext(localeTag: locale, timeZoneIdentifier: "UTC"))
            .withFormatters { $0.money(.dollars(text), currency: .named(currency)) }
    }

    private func date(_ iso: String, _ locale: String, _ zone: String = "UTC") -> String {
        DisplayFormatters(context: DisplayContext(localeTag: locale, timeZoneIdentifier: zone))
            .withFormatters { $0.mediumDate(ISO8601.parse(iso) ?? .distantPast) }
    }

    @Test func money_inEnglishGermanAndJapanese() {
        #expect(money("1234.5", "USD", "en-US") == "$1,234.50")
        #expect(money("89", "EUR", "en-US") == "€89.00")
        #expect(money("12.35", "GBP", "en-US") == "£12.35")
        #expect(money("1234.5", "EUR", "de-DE") == "1.234,50\u{00A0}€")
        #expect(money("1234.5", "USD", "de-DE") == "1.234,50\u{00A0}$")
        #expect(money("1234.5", "USD", "ja-JP") == "$1,234.50")
        #expect(money("1234.5", "JPY", "ja-JP") == "￥1,234" || money("1234.5", "JPY", "ja-JP") == "¥1,234")
    }

    @Test func mediumDate_inEnglishGermanAndJapanese() {
        #expect(date("2026-11-02T14:31:05Z", "en-US") == "Nov 2, 2026")
        #expect(date("2026-11-02T14:31:05Z", "de-DE") == "02.11.2026")
        #expect(date("2026-11-02T14:31:05Z", "ja-JP") == "2026/11/02")
    }

    @Test func mediumDate_usesTheClientsTimeZone() {
        #expect(date("2026-11-02T23:30:00Z", "en-US", "Asia/Tokyo") == "Nov 3, 2026")
        #expect(date("2026-11-02T01:30:00Z", "en-US", "America/Los_Angeles") == "Nov 1, 2026")
    }

    @Test func localeNegotiation_picksTheBestSupportedTag() {
        #expect(LocaleNegotiation.negotiate(explicit: nil, acceptLanguage: "de-DE,de;q=0.9,en;q=0.8") == "de-DE")
        #expect(LocaleNegotiation.negotiate(explicit: nil, acceptLanguage: "xx-YY, ja-jp;q=0.5, fr;q=0.7") == "fr")
        #expect(LocaleNegotiation.negotiate(explicit: nil, acceptLanguage: "en;q=0, de;q=0.1") == "de")
        #expect(LocaleNegotiation.negotiate(explicit: nil, acceptLanguage: "klingon") == "en-US")
        #expect(LocaleNegotiation.negotiate(explicit: "ja_JP", acceptLanguage: "de") == "ja-JP")
        #expect(LocaleNegotiation.negotiate(explicit: "zz-ZZ", acceptLanguage: "de") == "en-US")
        #expect(LocaleNegotiation.negotiate(explicit: nil, acceptLanguage: nil) == "en-US")
    }

    @Test func folding_ignoresCaseAndDiacritics() {
        #expect(TextFolding.fold("Jöhn") == "john")
        #expect(TextFolding.fold("José") == "jose")
        #expect(TextFolding.fold("Straße") == "strasse")
        #expect(TextFolding.fold("ORDER #12") == "order #12")
    }

    @Test func iso8601_parsesAndFormats() {
        #expect(ISO8601.parse("2026-11-02T14:31:05Z")?.timeIntervalSince1970 == 1_793_629_865)
        #expect(ISO8601.parse("2026-11-02T15:31:05+01:00")?.timeIntervalSince1970 == 1_793_629_865)
        #expect(ISO8601.parse("2026-02-30T00:00:00Z") == nil)
        #expect(ISO8601.parse("2026-11-02 14:31:05Z") == nil)
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1_793_629_865)) == "2026-11-02T14:31:05Z")
    }

    @Test func counts_areTheLocalesGrouping_whetherFormattedOrRemembered_andOneZoneServesAnother() {
        let cache = FormatterCache()
        let values = [0, 7, 2_987, 1_234_567, 2_987]
        for locale in ["en-US", "de-DE", "fr-FR", "hi-IN", "ja-JP"] {
            let reference = values.map { numberFormatter(locale).string(from: NSNumber(value: $0)) }
            let first = cache.counts(values, display: DisplayContext(localeTag: locale, timeZoneIdentifier: "Europe/Berlin"))
            let again = cache.counts(values, display: DisplayContext(localeTag: locale, timeZoneIdentifier: "Asia/Tokyo"))
            #expect(first == reference, "\(locale)")
            #expect(again == reference, "\(locale), remembered from another zone")
        }
        #expect(cache.counts([1_234_567], display: DisplayContext(localeTag: "de-DE", timeZoneIdentifier: "UTC")) == ["1.234.567"])
        #expect(cache.counts([1_234_567], display: DisplayContext(localeTag: "en-US", timeZoneIdentifier: "UTC")) == ["1,234,567"])
    }

    @Test func oneLocalesNumbers_serveEveryZone_andAreWrittenInThatLocale() {
        let cache = FormatterCache()
        let berlin = cache.formatters(for: DisplayContext(localeTag: "de-DE", timeZoneIdentifier: "Europe/Berlin"))
        let tokyo = cache.formatters(for: DisplayContext(localeTag: "de-DE", timeZoneIdentifier: "Asia/Tokyo"))
        let english = cache.formatters(for: DisplayContext(localeTag: "en-US", timeZoneIdentifier: "Asia/Tokyo"))
        #expect(berlin.withFormatters { $0.numbers } === tokyo.withFormatters { $0.numbers })
        #expect(berlin.withFormatters { $0.numbers } !== english.withFormatters { $0.numbers })
        for formatters in [berlin, tokyo, tokyo] {
            #expect(formatters.withFormatters { $0.money(.dollars("1234.5"), currency: .named("EUR")) } == "1.234,50\u{00A0}€")
            #expect(formatters.withFormatters { $0.count(2_987) } == "2.987")
        }
        #expect(english.withFormatters { $0.money(.dollars("1234.5"), currency: .named("EUR")) } == "€1,234.50")
        #expect(english.withFormatters { $0.count(2_987) } == "2,987")
    }

    @Test func aTagsLanguage_isItsFirstSubtag_lowercased() {
        #expect(DisplayContext.language(of: "de-DE") == "de")
        #expect(DisplayContext.language(of: "zh-Hant-TW") == "zh")
        #expect(DisplayContext.language(of: "DE-de") == "de")
        #expect(DisplayContext.language(of: "ja") == "ja")
        #expect(DisplayContext.language(of: "") == "en")
    }

    private func numberFormatter(_ locale: String) -> NumberFormatter {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: locale.replacingOccurrences(of: "-", with: "_"))
        formatter.numberStyle = .decimal
        return formatter
    }

    @Test(arguments: ["en-US", "de-DE", "fr-FR", "de-CH", "sv-SE", "pt-BR", "ru-RU", "ja-JP", "es-ES", "pl-PL", "hi-IN", "ar-EG", "fa-IR"])
    func counts_areWhatTheLocalesNumberFormatterWrites(locale: String) {
        let numbers = LocaleNumbers(locale: Locale(identifier: locale.replacingOccurrences(of: "-", with: "_")))
        var values = [0, 1, 9, 10, 99, 100, 999, 1_000, 1_001, 9_999, 10_000, 65_536, 100_000, 999_999, 1_000_000, -1, -2_987]
        values += [12_345_678_901, 987_654_321_012_345, Int.max, Int.min]
        values += (0..<200).map { ($0 &* 2_654_435_761 &+ 12_345) % 10_000_000_000 }  // spread over every length
        let formatter = numberFormatter(locale)
        for value in values {
            #expect(numbers.count(value) == formatter.string(from: NSNumber(value: value)), "\(locale) \(value)")
        }
    }

    @Test func plainGrouping_isFoundWhereTheFormatterWritesIt_andOnlyThere() {
        #expect(DigitGrouping(writtenLike: numberFormatter("en-US"))?.format(1_234_567) == "1,234,567")
        #expect(DigitGrouping(writtenLike: numberFormatter("de-DE"))?.format(2_987) == "2.987")
        #expect(DigitGrouping(writtenLike: numberFormatter("es-ES")) == nil, "2987 but 12.345: no separator in four digits")
        #expect(DigitGrouping(writtenLike: numberFormatter("pl-PL")) == nil, "the same, with a space")
        #expect(DigitGrouping(writtenLike: numberFormatter("ar-EG")) == nil, "Arabic-Indic digits")
    }

    @Test func aRowContextsToday_isRememberedWhileItLasts_andFoundAgainPastMidnight() throws {
        let display = DisplayContext(localeTag: "en-US", timeZoneIdentifier: "America/New_York")
        let formatters = DisplayFormatters(context: display)
        func today(at iso: String) throws -> Range<Date> {
            let now = try #require(ISO8601.parse(iso))
            return formatters.withFormatters { formatting in
                let context = RowContext(formatting: formatting, phrases: (), display: display, now: now, access: .everything)
                formatting = context.formatting
                return context.today
            }
        }
        let evening = try today(at: "2026-11-02T23:30:00-05:00")
        #expect(try today(at: "2026-11-02T09:00:00-05:00") == evening, "the same day, remembered")
        let after = try today(at: "2026-11-03T00:00:00-05:00")
        #expect(after.lowerBound == evening.upperBound, "past midnight: the next day")
        #expect(try today(at: "2026-11-02T12:00:00-05:00") == evening, "a clock set back finds its own day again")
        #expect(evening == CalendarDays.day(containing: try #require(ISO8601.parse("2026-11-02T12:00:00Z")), in: "America/New_York"))
    }

    /// The month last found per zone is taken only while the time lies in it: across a month's
    /// end, back again and between zones, each answer is the calendar's own.
    @Test func theMonthContaining_isTheCalendarsAcrossItsEnds() throws {
        var calendar = Calendar(identifier: .gregorian)
        for (text, zone) in [
            ("2026-11-30T23:59:59-05:00", "America/New_York"), ("2026-12-01T00:00:00-05:00", "America/New_York"),
            ("2026-11-15T12:00:00Z", "America/New_York"), ("2026-12-01T03:00:00Z", "Asia/Tokyo"),
            ("2026-12-01T03:00:00Z", "America/New_York"), ("2026-12-31T23:59:59+09:00", "Asia/Tokyo"),
            ("2027-01-01T00:00:00+09:00", "Asia/Tokyo"),
        ] {
            let now = try #require(ISO8601.parse(text))
            calendar.timeZone = try #require(TimeZone(identifier: zone))
            let expected = try #require(calendar.dateInterval(of: .month, for: now))
            #expect(CalendarDays.month(containing: now, in: zone) == expected.start..<expected.end, "\(text) in \(zone)")
        }
    }
}
