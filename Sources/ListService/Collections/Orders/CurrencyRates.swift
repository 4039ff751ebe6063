/// Fixed exchange rates to one base currency, US dollars, so that orders in different
/// currencies compare as amounts of money: `sort=total`, the high-value rule and free
/// shipping read the total in dollars, while every amount is still shown in its own currency.
/// The rates are fixed on purpose (a list's order must not move with the markets) and are for
/// comparison only, never for payment. An order's currency must be one of these: creating an
/// order in another is refused (422), and a data file holding one is refused at start-up.
package enum CurrencyRates {
    /// Millionths of a US dollar per unit of each currency (1 EUR = 1.08 USD). Fixed on 2026-11-23.
    static let microDollarsPerUnit: [String: Int64] = [
        "USD": 1_000_000, "EUR": 1_080_000, "GBP": 1_270_000, "CHF": 1_130_000, "CAD": 730_000, "AUD": 660_000,
        "NZD": 600_000, "JPY": 6_700, "CNY": 140_000, "HKD": 128_000, "SGD": 740_000, "INR": 12_000, "KRW": 720,
        "SEK": 95_000, "NOK": 93_000, "DKK": 145_000, "PLN": 250_000, "CZK": 43_000, "HUF": 2_700, "TRY": 29_000,
        "ILS": 270_000, "BRL": 180_000, "MXN": 55_000, "ZAR": 54_000,
    ]

    /// The currencies an order may be in, alphabetically.
    static let currencies = microDollarsPerUnit.keys.sorted()

    /// The rates in the order of `currencies`: what a `Currency` reads by its place.
    static let ratesInCurrencyOrder = currencies.map { microDollarsPerUnit[$0] ?? 0 }

    /// `amount` in US dollars (cents, rounded half up); saturates rather than overflow.
    static func inDollars(_ amount: Money, currency: Currency) -> Money {
        let (product, overflow) = amount.cents.multipliedReportingOverflow(by: currency.microDollarsPerUnit)
        guard !overflow else { return Money(cents: amount.cents < 0 ? .min : .max) }
        return Money(cents: (product + 500_000) / 1_000_000)
    }
}
