import Foundation

/// Creating, editing and moving orders through their states; all validation in one place.
extension Orders: EditableCollection {
    static let maxItems = 100
    static let maxQuantity = 10_000
    static let maxUnitPrice = Money(cents: 100_000_000)

    package static let actions = ["complete", "cancel"]

    package static func sequence(of id: String) -> Int? {
        id.hasPrefix("o-") ? Int(id.dropFirst(2)) : nil
    }

    /// The id and title the service gives its `sequence`th order: `o-000123`, `Order #100123`.
    static func idAndTitle(sequence: Int) -> (id: String, title: String) {
        ("o-" + String(zeroPadded: sequence, width: 6), "Order #\(100_000 + sequence)")
    }

    /// `POST /orders`: the server assigns id, title, date (now) and status (pending), and
    /// computes the total from the items.
    package static func makeItem(from body: JSONObject, sequence: Int, context: EditContext) -> Result<Order, WriteRejection> {
        var validator = FieldValidator(body)
        validator.rejectUnknown(["customerId", "customerName", "currency", "items", "shippingAddress"])
        let customer: OwnerID
        // A customer's order is their own; staff may name its customer, or none.
        let naming = context.newOwner(
            named: "customerId", by: .staff, in: &validator, otherwise: .none,
            refusal: .forbidden("create an order for another customer", allowed: "staff"))
        switch naming {
        case .success(let account): customer = account
        case .failure(let refusal): return .failure(refusal)
        }
        let name = validator.text("customerName", maxLength: 100)
        let currencyCode = validator.text("currency", maxLength: 3)
        let currency = currencyCode.flatMap(Currency.init(rawValue:))
        if currencyCode != nil && currency == nil { validator.report("currency", .oneOf(CurrencyRates.currencies)) }
        let items = readItems(&validator)
        let address = readAddress(body["shippingAddress"], into: &validator, isPatch: false, current: nil)
        if let rejection = validator.result { return .failure(rejection) }
        guard let name, let currency, let items, let address else { return .failure(.invalid([])) }
        let (id, title) = idAndTitle(sequence: sequence)
        let order = Order(
            id: id, title: title,
            customerName: name, currency: currency, total: Order.total(of: items),
            date: Date(timeIntervalSince1970: context.now.timeIntervalSince1970.rounded(.down)), status: .pending, items: items,
            shippingAddress: address, customer: customer)
        return .success(order)
    }

    /// What `PATCH /orders/:id` may change.
    static let patchableFields = ["customerName", "shippingAddress"]

    /// `PATCH /orders/:id`: a JSON merge patch of `customerName` and `shippingAddress`.
    package static func patch(_ order: Order, with body: JSONObject, context: EditContext) -> Result<Order, WriteRejection> {
        var validator = FieldValidator(body)
        validator.rejectUnknown(patchableFields)
        var patched = order
        if body["customerName"] != nil, let name = validator.text("customerName", maxLength: 100) { patched.customerName = name }
        if let value = body["shippingAddress"],
            let address = readAddress(value, into: &validator, isPatch: true, current: order.shippingAddress)
        {
            patched.shippingAddress = address
        }
        if let rejection = validator.result { return .failure(rejection) }
        return .success(patched)
    }

    /// `complete` and `cancel`: pending orders move; doing it twice changes nothing; a
    /// completed order cannot be cancelled, nor a cancelled one completed.
    package static func perform(_ action: String, on order: Order) -> Result<Order, WriteRejection> {
        let target: OrderStatus
        switch action {
        case "complete": target = .completed
        case "cancel": target = .cancelled
        default: return .failure(.notFound("action '\(action)'"))
        }
        guard order.status != target else { return .success(order) }
        guard order.status.isOpen else {
            return .failure(.conflict("A \(order.status.rawValue) order cannot be \(target.rawValue)."))
        }
        var changed = order
        changed.status = target
        return .success(changed)
    }

    private static func readItems(_ validator: inout FieldValidator) -> [OrderItem]? {
        guard case .array(let elements)? = validator.body["items"] else {
            validator.report("items", validator.body["items"].map { .wrongKind(expected: .array, found: $0.kind) } ?? .required)
            return nil
        }
        if elements.isEmpty { validator.report("items", .atLeastItems(1)) }
        if elements.count > maxItems { validator.report("items", .atMostItems(maxItems)) }
        var items: [OrderItem] = []
        for (index, element) in elements.prefix(maxItems).enumerated() {
            let path = "items[\(index)]"
            guard case .object(let object) = element else {
                validator.report(path, .wrongKind(expected: .object, found: element.kind))
                continue
            }
            validator.rejectUnknown(["name", "quantity", "unitPrice", "requiresSignature"], in: object, prefix: path + ".")
            let name = validator.text("name", in: object, path: path + ".name", maxLength: 100)
            var quantity: Int32?
            switch object["quantity"] {
            case .number(let number)? where number.int64.map({ (1...Int64(maxQuantity)).contains($0) }) == true:
                quantity = number.int64.map(Int32.init)
            case nil: validator.report(path + ".quantity", .required)
            default: validator.report(path + ".quantity", .wholeNumber(1...maxQuantity))
            }
            var price: Money?
            switch object["unitPrice"] {
            case .number(let number)?:
                do {
                    let money = try Money(parsing: number.text)
                    if money.cents < 0 {
                        validator.report(path + ".unitPrice", .notNegative)
                    } else if money > maxUnitPrice {
                        validator.report(path + ".unitPrice", .atMost(maxUnitPrice.plainText))
                    } else {
                        price = money
                    }
                } catch {
                    // Judged as it reads: -1e400 is negative, 1e400 (or 2000000.005) too large,
                    // not too precise.
                    if number.text.hasPrefix("-") {
                        validator.report(path + ".unitPrice", .notNegative)
                    } else if error == .tooLarge || (number.double ?? 0) > Double(maxUnitPrice.cents) / 100 {
                        validator.report(path + ".unitPrice", .atMost(maxUnitPrice.plainText))
                    } else {
                        validator.report(path + ".unitPrice", .atMostTwoDecimals)
                    }
                }
            case nil: validator.report(path + ".unitPrice", .required)
            case let other?: validator.report(path + ".unitPrice", .wrongKind(expected: .number, found: other.kind))
            }
            let signature = validator.bool("requiresSignature", in: object, path: path + ".requiresSignature", isRequired: false)
            if let name, let quantity, let price {
                items.append(OrderItem(name: name, quantity: quantity, unitPrice: price, requiresSignature: signature ?? false))
            }
        }
        return items
    }

    /// The address from a body (all parts required) or a merge patch over `current`.
    private static func readAddress(
        _ value: JSONValue?, into validator: inout FieldValidator, isPatch: Bool, current: ShippingAddress?
    ) -> ShippingAddress? {
        guard case .object(let object)? = value else {
            validator.report("shippingAddress", value.map { .wrongKind(expected: .object, found: $0.kind) } ?? .required)
            return nil
        }
        let parts = ["street", "city", "postalCode", "country"]
        validator.rejectUnknown(parts + ["isResidential"], in: object, prefix: "shippingAddress.")
        var texts: [String: String] = [:]
        for part in parts where !isPatch || object[part] != nil {
            texts[part] = validator.text(part, in: object, path: "shippingAddress.\(part)", maxLength: 200)
        }
        let residential =
            !isPatch || object["isResidential"] != nil
            ? validator.bool("isResidential", in: object, path: "shippingAddress.isResidential") : nil
        func part(_ name: String, _ keyPath: KeyPath<ShippingAddress, String>) -> String? { texts[name] ?? current?[keyPath: keyPath] }
        guard let street = part("street", \.street), let city = part("city", \.city), let postalCode = part("postalCode", \.postalCode),
            let country = part("country", \.country), let isResidential = residential ?? current?.isResidential
        else { return nil }
        return ShippingAddress(street: street, city: city, postalCode: postalCode, country: country, isResidential: isResidential)
    }
}
