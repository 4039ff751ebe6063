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
    /// Whether the reader may complete, cancel, and delete the order now (only a pending order
    /// moves; a customer may cancel their own but neither complete nor delete it): show those
    /// actions where these are true.
    public var canComplete: Bool
    public var canCancel: Bool
    public var canDelete: Bool
    /// The item's version: send it back as `ifMatch` to change exactly what was shown.
    public var version: String
    /// The section the row is in, in a grouped list.
    public var sectionKey: String?
}

/// One order in full: its row, the raw values an edit form starts from, its items and address.
public struct OrderDetail: Decodable, Sendable, Equatable, Identifiable {
    public struct Item: Codable, Sendable, Equatable {
        public var name: String
        public var quantity: Int
        /// A decimal string ("14.50").
        public var unitPrice: String
        public var formattedUnitPrice: String
        public var formattedLineTotal: String
        public var requiresSignature: Bool
    }

    /// What the list shows of it (the detail carries every field of its row).
    public var row: OrderRow
    public var currency: String
    /// A decimal string ("343.50").
    public var total: String
    /// ISO 8601.
    public var date: String
    public var items: [Item]
    public var shippingAddress: ShippingAddress
    public var formattedAddress: String

    public var id: String { row.id }

    private enum CodingKeys: String, CodingKey {
        case currency, total, date, items, shippingAddress, formattedAddress
    }

    public init(from decoder: any Decoder) throws {
        row = try OrderRow(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currency = try container.decode(String.self, forKey: .currency)
        total = try container.decode(String.self, forKey: .total)
        date = try container.decode(String.self, forKey: .date)
        items = try container.decode([Item].self, forKey: .items)
        shippingAddress = try container.decode(ShippingAddress.self, forKey: .shippingAddress)
        formattedAddress = try container.decode(String.self, forKey: .formattedAddress)
    }
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
