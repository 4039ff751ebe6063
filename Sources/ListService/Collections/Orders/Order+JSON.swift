import Foundation

extension Order {
    /// Decodes one order in the shared data format (`../shared/data/README.md`), checking
    /// that money is exact and the total matches the items.
    package init(json: JSONValue, path: String) throws(JSONFieldError) {
        let fields = try JSONFields(json, path: path)
        let id = try fields.string("id")
        guard !id.isEmpty else { throw JSONFieldError(path: fields.fieldPath("id"), reason: "is empty") }
        let currencyCode = try fields.string("currency")
        guard let currency = Currency(rawValue: currencyCode) else {
            throw JSONFieldError(
                path: fields.fieldPath("currency"),
                reason: "'\(currencyCode)' is not a currency orders may be in (\(CurrencyRates.currencies.joined(separator: ", ")))")
        }
        let dateText = try fields.string("date")
        guard let date = ISO8601.parse(dateText) else {
            throw JSONFieldError(path: fields.fieldPath("date"), reason: "'\(dateText)' is not an ISO 8601 timestamp")
        }
        let statusText = try fields.string("status")
        guard let status = OrderStatus(rawValue: statusText) else {
            throw JSONFieldError(path: fields.fieldPath("status"), reason: "'\(statusText)' is not pending, completed or cancelled")
        }
        var items: [OrderItem] = []
        for (index, item) in try fields.array("items").enumerated() {
            items.append(try OrderItem(json: item, path: "\(fields.fieldPath("items"))[\(index)]"))
        }
        let address = try fields.fields("shippingAddress")
        self.init(
            id: id, title: try fields.nonBlankString("title"), customerName: try fields.nonBlankString("customerName"),
            currency: currency, total: try Self.money(fields, "total"), date: date, status: status, items: items,
            shippingAddress: ShippingAddress(
                street: try address.string("street"), city: try address.string("city"),
                postalCode: try address.string("postalCode"), country: try address.string("country"),
                isResidential: try address.bool("isResidential")),
            customer: OwnerID(try fields.optionalString("customerId") ?? ""))
        guard total.cents >= 0 else { throw JSONFieldError(path: fields.fieldPath("total"), reason: "is negative") }
        guard total == itemsTotal else {
            throw JSONFieldError(
                path: fields.fieldPath("total"),
                reason: "\(total.plainText) is not the sum of the items (\(itemsTotal.plainText))")
        }
    }

    static func money(_ fields: JSONFields, _ key: String) throws(JSONFieldError) -> Money {
        let number = try fields.number(key)
        do {
            return try Money(parsing: number.text)
        } catch {
            let reason = error == .tooLarge ? "is larger than an amount can be" : "is not an amount with at most two decimals"
            throw JSONFieldError(path: fields.fieldPath(key), reason: "\(number.text) \(reason)")
        }
    }
}

extension OrderItem {
    init(json: JSONValue, path: String) throws(JSONFieldError) {
        let fields = try JSONFields(json, path: path)
        let quantityNumber = try fields.number("quantity")
        guard let quantity = quantityNumber.int64, quantity >= 1, quantity <= 1_000_000 else {
            throw JSONFieldError(
                path: fields.fieldPath("quantity"), reason: "\(quantityNumber.text) is not a whole number from 1 to 1000000")
        }
        self.init(
            name: try fields.nonBlankString("name"), quantity: Int32(quantity), unitPrice: try Order.money(fields, "unitPrice"),
            requiresSignature: try fields.bool("requiresSignature"))
    }
}

extension ShippingAddress {
    /// The address as an object, in the shared data format and in an order's detail alike.
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("street", street)
        json.field("city", city)
        json.field("postalCode", postalCode)
        json.field("country", country)
        json.field("isResidential", isResidential)
        json.endObject()
    }
}
