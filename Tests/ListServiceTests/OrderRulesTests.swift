import Testing

@testable import ListService

@Suite struct OrderRulesTests {
    @Test(arguments: [("1000.00", false), ("1000.01", true), ("999.99", false), ("25000", true)])
    func isHighValue_isStrictlyAboveOneThousand(total: String, expected: Bool) {
        #expect(Order.make(total: .dollars(total)).isHighValue == expected)
    }

    @Test(arguments: [
        ("100.00", "10.00"),  // exactly 100 is not free
        ("100.01", "0.00"),
        ("123.45", "0.00"),
        ("99.99", "10.00"),  // 9.999 → 10.00
        ("12.34", "1.23"),  // 1.234 → 1.23
        ("12.35", "1.24"),  // 1.235 → 1.24: half rounds up
        ("0.05", "0.01"),  // 0.005 → 0.01
        ("0.04", "0.00"),
        ("0.00", "0.00"),
    ])
    func shippingCost_isTenPercentHalfUpAtOrBelowOneHundred(total: String, expected: String) {
        #expect(Order.make(total: .dollars(total)).shippingCost == .dollars(expected))
    }

    @Test func shippingCost_roundsAThirdDecimalFiveUp() {
        // 10% of 123.45 would be 12.345; an order of 123.45 is free, so check the rule itself on 12.345 → 1.2345.
        #expect(Order.make(total: .dollars("23.45")).shippingCost == .dollars("2.35"))  // 2.345 → 2.35
    }

    @Test func requiresSignature_needsASignatureItemAndAResidentialAddress() {
        let signed = [OrderItem(name: "Laptop", quantity: 1, unitPrice: .dollars("1499"), requiresSignature: true)]
        let unsigned = [OrderItem(name: "Mug", quantity: 2, unitPrice: .dollars("9.99"), requiresSignature: false)]
        #expect(Order.make(items: signed, isResidential: true).requiresSignature)
        #expect(!Order.make(items: signed, isResidential: false).requiresSignature)
        #expect(!Order.make(items: unsigned, isResidential: true).requiresSignature)
        #expect(!Order.make(items: signed + unsigned, isResidential: false).requiresSignature)
        #expect(Order.make(items: unsigned + signed, isResidential: true).requiresSignature)
    }

    @Test func emptyItems_meanNoSignatureAndZeroTotal() {
        let order = Order.make(items: [])
        #expect(!order.requiresSignature)
        #expect(order.itemsTotal == Money(cents: 0))
        #expect(!order.isHighValue)
    }

    @Test func money_parsesDecimalTextExactly() {
        #expect(Money(decimalText: "1234.5")?.cents == 123_450)
        #expect(Money(decimalText: "0.1")?.cents == 10)
        #expect(Money(decimalText: "1e2")?.cents == 10_000)
        #expect(Money(decimalText: "12.345") == nil)
        #expect(Money(decimalText: "abc") == nil)
        #expect(Money(cents: 123_405).plainText == "1234.05")
    }

    @Test func filters_matchTheirDefinitions() {
        let month = (ISO8601.parse("2026-11-01T00:00:00Z") ?? .distantPast)..<(ISO8601.parse("2026-12-01T00:00:00Z") ?? .distantFuture)
        let inMonth = ISO8601.parse("2026-11-15T00:00:00Z") ?? .now
        let before = ISO8601.parse("2026-10-31T23:59:59Z") ?? .now
        func matches(_ filter: OrderFilter, _ order: Order) -> Bool {
            Orders.matches(Orders.filterFields(of: order), view: filter, scope: Orders.Scope(currentMonth: month))
        }
        #expect(matches(.currentMonth, .make(date: inMonth)))
        #expect(!matches(.currentMonth, .make(date: before)))
        #expect(!matches(.currentMonth, .make(date: month.upperBound)))
        #expect(!matches(.currentMonth, .make(date: inMonth, status: .cancelled)))
        #expect(!matches(.currentMonth, .make(date: inMonth, items: [])), "a zero total is excluded")
        #expect(matches(.pending, .make(status: .pending)) && !matches(.pending, .make(status: .completed)))
        #expect(matches(.cancelled, .make(status: .cancelled)))
        #expect(matches(.highValue, .make(total: .dollars("1000.01"))) && !matches(.highValue, .make(total: .dollars("1000"))))
    }
}
