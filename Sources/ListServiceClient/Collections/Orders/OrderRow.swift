/// One order as a list shows it: everything already formatted for the reader.
public struct OrderRow: ListRow {
    public var id: String
    public var title: String
    public var customerName: String
    /// `pending`, `completed` or `cancelled`.
    public var status: String
    public var statusLabel: String
    public var formattedTotal: String
    public var formattedDate: String
    public var shippingLabel: String
    public var requiresSignature: Bool
    public var isHighValue: Bool
    /// The item's version: send it back as `ifMatch` to change exactly what was shown.
    public var version: String
    /// The section the row is in, in a grouped list.
    public var sectionKey: String?
}

/// One order in full: its row, the raw values an edit form starts from, its items and address.
public struct OrderDetail: Codable, Sendable, Equatable, Identifiable {
    public struct Item: Codable, Sendable, Equatable {
        public var name: String
        public var quantity: Int
        /// A decimal string ("14.50").
        public var unitPrice: String
        public var formattedUnitPrice: String
        public var formattedLineTotal: String
        public var requiresSignature: Bool
    }

    public var id: String
    public var title: String
    public var customerName: String
    public var status: String
    public var statusLabel: String
    public var formattedTotal: String
    public var formattedDate: String
    public var shippingLabel: String
    public var requiresSignature: Bool
    public var isHighValue: Bool
    public var currency: String
    /// A decimal string ("343.50").
    public var total: String
    /// ISO 8601.
    public var date: String
    public var items: [Item]
    public var shippingAddress: ShippingAddress
    public var formattedAddress: String
    public var version: String
}

/// Where an order goes.
public struct ShippingAddress: Codable, Sendable, Equatable {
    public var street: String
    public var city: String
    public var postalCode: String
    /// ISO 3166 alpha-2 ("NO").
    public var country: String
    public var isResidential: Bool

    public init(street: String, city: String, postalCode: String, country: String, isResidential: Bool) {
        (self.street, self.city, self.postalCode, self.country, self.isResidential) = (street, city, postalCode, country, isResidential)
    }
}
