import Foundation

/// An order with its business rules. Pure data: no formatting, no I/O.
public struct Order: Sendable, Equatable {
    public var id: String
    public var title: String
    public var customerName: String
    /// ISO 4217 code, e.g. `USD`.
    public var currency: String
    public var total: Money
    public var date: Date
    public var status: OrderStatus
    public var items: [OrderItem]
    public var shippingAddress: ShippingAddress

    public init(
        id: String, title: String, customerName: String, currency: String, total: Money, date: Date,
        status: OrderStatus, items: [OrderItem], shippingAddress: ShippingAddress
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
    }

    /// Orders above this, in their currency, are high value.
    static let highValueThreshold = Money(cents: 100_000)

    /// Orders above 1,000 in their currency.
    public var isHighValue: Bool { Self.isHighValue(total: total) }

    /// The one definition of high value, for an order and for the `highValue` filter's columns.
    static func isHighValue(total: Money) -> Bool { total > highValueThreshold }

    /// A signature is needed when any item asks for one and the parcel goes to a home.
    public var requiresSignature: Bool {
        shippingAddress.isResidential && items.contains { $0.requiresSignature }
    }

    /// Shipping is free for orders above 100.
    public var isShippingFree: Bool { total > Money(cents: 10_000) }

    /// Free above 100; otherwise 10% of the total, rounded half-up to the cent.
    public var shippingCost: Money {
        guard !isShippingFree else { return Money(cents: 0) }
        // 10% of c cents is c/10 cents; adding 5 tenths before dividing rounds half-up.
        return Money(cents: (total.cents + 5) / 10)
    }

    /// The sum of quantity × unit price over the items.
    public var itemsTotal: Money { Self.total(of: items) }

    /// The sum of quantity × unit price over `items`: an order's total.
    static func total(of items: [OrderItem]) -> Money { items.reduce(Money(cents: 0)) { $0 + $1.lineTotal } }
}

public enum OrderStatus: String, Sendable, CaseIterable {
    case pending, completed, cancelled
}

/// One line of an order.
public struct OrderItem: Sendable, Equatable {
    public var name: String
    public var quantity: Int
    public var unitPrice: Money
    public var requiresSignature: Bool

    /// Quantity × unit price.
    public var lineTotal: Money { Money(cents: unitPrice.cents * Int64(quantity)) }

    public init(name: String, quantity: Int, unitPrice: Money, requiresSignature: Bool) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.requiresSignature = requiresSignature
    }
}

/// Where an order ships.
public struct ShippingAddress: Sendable, Equatable {
    public var street: String
    public var city: String
    public var postalCode: String
    public var country: String
    public var isResidential: Bool

    public init(street: String, city: String, postalCode: String, country: String, isResidential: Bool) {
        self.street = street
        self.city = city
        self.postalCode = postalCode
        self.country = country
        self.isResidential = isResidential
    }
}
