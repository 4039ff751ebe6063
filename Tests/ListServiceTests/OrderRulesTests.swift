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

    @Test(arguments: [
        ("USD", "950.00", false), ("EUR", "950.00", true),  // €950 = $1,026
        ("GBP", "790.00", true), ("GBP", "787.00", false),  // £790 = $1,003.30; £787 = $999.49
        ("JPY", "150000", true), ("JPY", "149000", false),  // ¥150,000 = $1,005; ¥149,000 = $998.30
    ])
    func highValue_isMoreThanAThousandDollars_inEveryCurrency(currency: String, total: String, expected: Bool) {
        #expect(Order.make(currency: currency, total: .dollars(total)).isHighValue == expected)
    }

    @Test func freeShipping_isAboveOneHundredDollars_theCostStaysInTheOrdersCurrency() {
        #expect(Order.make(currency: "GBP", total: .dollars("80.00")).isShippingFree, "£80 = $101.60")
        #expect(!Order.make(currency: "EUR", total: .dollars("92.00")).isShippingFree, "€92 = $99.36")
        #expect(Order.make(currency: "EUR", total: .dollars("92.00")).shippingCost == .dollars("9.20"), "10% in euros")
        #expect(!Order.make(currency: "USD", total: .dollars("100.00")).isShippingFree)
        #expect(Order.make(currency: "CHF", total: .dollars("90.00")).isShippingFree, "CHF 90 = $101.70")
    }

    @Test func ordersInDifferentCurrencies_sortAndFilterAsAmountsOfMoney() throws {
        let orders = [
            Order.make(id: "o-1", currency: "USD", total: .dollars("8902.00")),
            Order.make(id: "o-2", currency: "GBP", total: .dollars("9893.00")),  // $12,564.11
            Order.make(id: "o-3", currency: "EUR", total: .dollars("8300.00")),  // $8,964
            Order.make(id: "o-4", currency: "JPY", total: .dollars("1000000")),  // $6,700
            Order.make(id: "o-5", currency: "EUR", total: .dollars("900.00")),  // $972: not high value
        ]
        let service = makeService(orders: orders)
        let (page, _) = try list(Orders.self, "sort=total&order=desc", service: service)
        #expect(ids(page) == ["o-2", "o-3", "o-1", "o-4", "o-5"])
        let (high, _) = try list(Orders.self, "filter=highValue", service: service)
        #expect(Set(ids(high)) == ["o-1", "o-2", "o-3", "o-4"])
        let row = (page["items"] as? [[String: Any]])?.first
        #expect(row?["formattedTotal"] as? String == "£9,893.00", "shown in its own currency")
    }

    @Test func inDollars_roundsHalfUp_andSaturatesInsteadOfOverflowing() {
        #expect(CurrencyRates.inDollars(Money(cents: 1), currency: .named("EUR")) == Money(cents: 1))  // 1.08 → 1
        #expect(CurrencyRates.inDollars(Money(cents: 50), currency: .named("GBP")) == Money(cents: 64))  // 63.5 → 64
        #expect(CurrencyRates.inDollars(Money(cents: .max / 2), currency: .named("GBP")) == Money(cents: .max))
    }

    @Test func aCurrency_isOneWithARate_andKeepsItsCode() {
        #expect(Currency(rawValue: "XAU") == nil)
        #expect(Currency(rawValue: "usd") == nil)
        #expect(CurrencyRates.currencies.allSatisfy { Currency(rawValue: $0)?.rawValue == $0 })
        #expect(Currency.usDollar.rawValue == "USD")
        #expect(Currency.named("JPY").microDollarsPerUnit == 6_700)
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
        #expect((try? Money(parsing: "1234.5"))?.cents == 123_450)
        #expect((try? Money(parsing: "0.1"))?.cents == 10)
        #expect((try? Money(parsing: "1e2"))?.cents == 10_000)
        #expect((try? Money(parsing: "12.345")) == nil)
        #expect((try? Money(parsing: "abc")) == nil)
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

    /// The flags a row carries for the actions agree with what the actions do: only a pending
    /// order moves; doing it again changes nothing; the other way round is a conflict.
    @Test(arguments: OrderStatus.allCases)
    func statusActions_flagsAgreeWithWhatTheActionsDo(status: OrderStatus) throws {
        let order = Order.make(status: status)
        let actions = [("complete", status.isOpen, OrderStatus.completed), ("cancel", status.isOpen, .cancelled)]
        for (action, isAllowed, target) in actions {
            switch Orders.perform(action, on: order) {
            case .success(let changed):
                #expect(changed.status == target, "\(action) on \(status)")
                #expect(isAllowed == (status != target), "\(action) on \(status): allowed only where it moves the order")
            case .failure(let rejection):
                #expect(!isAllowed, "\(action) on \(status) is refused: \(rejection)")
                #expect(status != .pending)
            }
        }
        #expect(status.isOpen == (status == .pending))
    }

    /// A row's `canComplete` and `canDelete` read the rule per access, the writes per caller:
    /// they agree for every kind of caller.
    @Test func completesAndDeletes_perAccess_areTheWritesRules() {
        let callers: [Caller] = [.anonymous] + Identity.Role.allCases.map { .identified(Identity(subject: "c-0001", role: $0)) }
        let order = Order.make(status: .pending)
        for caller in callers {
            let mayWrite = Orders.editRefusal(.action("complete"), on: order, by: caller) == nil
            #expect(Orders.manages(in: Orders.readScope(for: caller)) == mayWrite, "\(caller)")
            let mayDelete = Orders.editRefusal(.delete, on: order, by: caller) == nil
            #expect(Orders.manages(in: Orders.readScope(for: caller)) == mayDelete, "\(caller)")
            #expect(Orders.editRefusal(.action("cancel"), on: order, by: caller) == nil, "\(caller) may cancel what they see")
        }
    }
}
