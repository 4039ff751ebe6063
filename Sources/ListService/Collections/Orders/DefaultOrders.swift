import Basics
import Foundation

/// The embedded data set served when no `--data` directory is given: deterministic orders
/// in the shared format's vocabulary, dated in the 18 months before `anchor`.
package enum DefaultOrders {
    package static func make(count: Int = 10_000, anchor: Date) -> [Order] {
        var random = SplitMix64(seed: 7)
        let span = 548 * 86_400
        let anchorSeconds = Int(anchor.timeIntervalSince1970)
        return (0..<count).map { index in
            var items: [OrderItem] = []
            for _ in 0..<random.pick([1, 1, 1, 2, 2, 3, 4]) {
                let (name, price) = random.pick(products)
                items.append(
                    OrderItem(
                        name: name, quantity: random.pick([1, 1, 1, 2, 3]), unitPrice: Money(cents: price),
                        requiresSignature: needsSignature.contains(name)))
            }
            let (city, country) = random.pick(cities)
            let currency = random.pick(currencies)
            let status = random.pick([OrderStatus.pending, .pending, .pending] + Array(repeating: .completed, count: 6) + [.cancelled])
            let total = Order.total(of: items)
            let (id, title) = Orders.idAndTitle(sequence: index + 1)
            let first = random.below(firstNames.count), last = random.below(lastNames.count)
            return Order(
                id: id, title: title,
                customerName: "\(firstNames[first]) \(lastNames[last])",
                currency: currency, total: total,
                date: Date(timeIntervalSince1970: Double(anchorSeconds - random.below(span))),
                status: status, items: items,
                shippingAddress: ShippingAddress(
                    street: "\(1 + random.below(998)) \(random.pick(streets))", city: city,
                    postalCode: String(10_000 + random.below(89_999)), country: country,
                    isResidential: random.below(10) < 7),
                customer: customer(first: first, last: last))
        }
    }

    /// How many customers there are: one per distinct name (1,200, as in the shared data set).
    static let customerCount = firstNames.count * lastNames.count

    /// Customer `number`'s account (from 1): `c-0042`.
    static func customer(number: Int) -> OwnerID { OwnerID("c-" + String(zeroPadded: UInt32(number), width: 4)) }

    /// The account of the customer with these names, numbered as the shared data set
    /// (`generate.py`) numbers them: by the name's place among all first × last names.
    private static func customer(first: Int, last: Int) -> OwnerID { customer(number: first * lastNames.count + last + 1) }

    private static let currencies = ["USD", "USD", "USD", "USD", "USD", "USD", "USD", "USD", "EUR", "GBP"]
        .compactMap(Currency.init(rawValue:))
    private static let firstNames = [
        "John", "Johnny", "Joan", "Jonathan", "José", "Zoë", "Jürgen", "Søren", "Amélie", "Ana", "Ben", "David", "Tom",
        "Maria", "Mei", "Olu", "Priya", "Sven", "Chloé", "Noah", "Liam", "Emma", "Olivia", "Ava", "Lucas", "Mateo", "Hana",
        "Yuki", "Fatima", "Omar", "Ines", "Björn", "Łukasz", "Nuño", "Renée", "Ingrid", "Kai", "Leah", "Aaron", "Grace",
    ]
    private static let lastNames = [
        "Appleseed", "Johnson", "Smith", "García", "Müller", "Øvergaard", "Dubois", "Rossi", "Kowalski", "Nakamura",
        "Okafor", "Patel", "Andersson", "Fernández", "Nguyen", "Kim", "O'Brien", "Schmidt", "Lefèvre", "Silva", "Brown",
        "Taylor", "Wilson", "Jones", "Martin", "Lee", "Walker", "Hall", "Young", "Johns",
    ]
    private static let products: [(String, Int64)] = [
        ("Coffee beans", 1450), ("Espresso machine", 89900), ("Mug", 999), ("Laptop", 149_900), ("USB-C cable", 1200),
        ("Headphones", 24995), ("Desk lamp", 3990), ("Office chair", 32900), ("Notebook", 425), ("Monitor", 37999),
        ("Keyboard", 8900), ("Wine case", 15900), ("Passport holder", 2400), ("Smartphone", 109_900), ("Socks", 750),
    ]
    private static let needsSignature: Set = ["Espresso machine", "Laptop", "Wine case", "Smartphone", "Monitor"]
    private static let cities = [
        ("Springfield", "US"), ("Portland", "US"), ("Austin", "US"), ("Berlin", "DE"), ("Paris", "FR"), ("London", "GB"),
        ("Madrid", "ES"), ("Oslo", "NO"), ("Tokyo", "JP"),
    ]
    private static let streets = ["Main St", "Oak Ave", "Elm St", "Market St", "Station Rd", "Lindenstraße", "Rue de Rivoli"]
}
