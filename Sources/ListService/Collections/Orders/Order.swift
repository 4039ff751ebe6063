import Foundation

/// An order with its business rules. Pure data: no formatting, no I/O.
package struct Order: Sendable, Equatable {
    package var id: String
    package var title: String
    package var customerName: String
    package var total: Money
    package var date: Date
    package var items: [OrderItem]
    package var shippingAddress: ShippingAddress
    // The one-byte fields last, where they fill the address's padding: 144 bytes an order, not 168.
    package var status: OrderStatus
    package var currency: Currency
    /// The customer's account (`customerId`, `c-0042`): whose order it is. Four bytes, in the
    /// padding after the one-byte fields.
    package var customer: OwnerID

    package init(
        id: String, title: String, customerName: String, currency: Currency, total: Money, date: Date,
        status: OrderStatus, items: [OrderItem], shippingAddress: ShippingAddress, customer: OwnerID = .none
    ) {
        self.id = id
        self.title = title
        self.customerName = customerName
        self.currency = currency
        self.total = total
        self.date = date
        self.status = status
        self.items = items
        self.shippingAddress = shippingAddress
        self.customer = customer
    }

    /// The total in US dollars at the fixed rates (`CurrencyRates`): what orders in different
    /// currencies are compared by.
    package var totalInDollars: Money { CurrencyRates.inDollars(total, currency: currency) }

    /// Orders worth more than this many dollars are high value.
    static let highValueThreshold = Money(cents: 100_000)

    /// Worth more than $1,000, whatever its currency.
    package var isHighValue: Bool { totalInDollars > Self.highValueThreshold }

    /// A signature is needed when any item asks for one and the parcel goes to a home.
    package var requiresSignature: Bool {
        shippingAddress.isResidential && items.contains { $0.requiresSignature }
    }

    /// Shipping is free for orders worth more than $100, whatever their currency.
    package var isShippingFree: Bool { totalInDollars > Money(cents: 10_000) }

    /// Free above $100; otherwise 10% of the total in its own currency, rounded half-up.
    package var shippingCost: Money {
        guard !isShippingFree else { return Money(cents: 0) }
        // 10% of c cents is c/10 cents; adding 5 tenths before dividing rounds half-up.
        return Money(cents: (total.cents + 5) / 10)
    }

    /// The sum of quantity × unit price over the items.
    package var itemsTotal: Money { Self.total(of: items) }

    /// The sum of quantity × unit price over `items`: an order's total.
    static func total(of items: [OrderItem]) -> Money { items.reduce(Money(cents: 0)) { $0 + $1.lineTotal } }
}

/// Where an order is in its life: pending until it is completed or cancelled.
package enum OrderStatus: String, Sendable, CaseIterable {
    case pending, completed, cancelled

    /// Whether an order in this status can still be completed or cancelled: only a pending one
    /// moves (the same action again leaves a moved one as it is; the other is a conflict).
    package var isOpen: Bool { self == .pending }

    /// Its place in a list by status: pending 0, completed 1, cancelled 2.
    package var rank: Int {
        switch self {
        case .pending: 0
        case .completed: 1
        case .cancelled: 2
        }
    }
}

/// One line of an order: 32 bytes (a quantity of up to a million needs no more than 32 bits).
package struct OrderItem: Sendable, Hashable {
    package var name: String
    package var unitPrice: Money
    package var quantity: Int32
    package var requiresSignature: Bool

    /// Quantity × unit price.
    package var lineTotal: Money { Money(cents: unitPrice.cents * Int64(quantity)) }

    package init(name: String, quantity: Int32, unitPrice: Money, requiresSignature: Bool) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.requiresSignature = requiresSignature
    }

    /// Hashes the numbers and the name's length, not the name's text: lines are hashed by the
    /// million when equal baskets are shared at load, and a product's price and quantity tell
    /// lines apart about as well (equality still compares every field).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(name.utf8.count)
        hasher.combine(quantity)
        hasher.combine(unitPrice)
        hasher.combine(requiresSignature)
    }
}

/// Where an order ships.
package struct ShippingAddress: Sendable, Equatable {
    package var street: String
    package var city: String
    package var postalCode: String
    package var country: String
    package var isResidential: Bool

    package init(street: String, city: String, postalCode: String, country: String, isResidential: Bool) {
        self.street = street
        self.city = city
        self.postalCode = postalCode
        self.country = country
        self.isResidential = isResidential
    }
}
