/// A currency an order may be in: one with a fixed rate in `CurrencyRates`, held as its place
/// in that table. One byte per order, where the code as a `String` took sixteen in each of a
/// million orders, and the rate is read without hashing the code.
package struct Currency: RawRepresentable, Sendable, Hashable {
    private let index: UInt8

    private static let indexByCode = Dictionary(
        uniqueKeysWithValues: CurrencyRates.currencies.enumerated().map { ($0.element, UInt8($0.offset)) })

    /// The currency whose ISO 4217 code is `rawValue`, or nil when orders may not be in it.
    package init?(rawValue: String) {
        guard let index = Self.indexByCode[rawValue] else { return nil }
        self.index = index
    }

    /// The US dollar, which section summaries convert into.
    package static let usDollar = Currency(rawValue: "USD") ?? Currency(index: 0)

    private init(index: UInt8) { self.index = index }

    /// The ISO 4217 code, e.g. `USD`.
    package var rawValue: String { CurrencyRates.currencies[Int(index)] }

    /// Millionths of a US dollar per unit of this currency.
    var microDollarsPerUnit: Int64 { CurrencyRates.ratesInCurrencyOrder[Int(index)] }
}
