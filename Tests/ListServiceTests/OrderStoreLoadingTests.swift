import Foundation
import Testing

@testable import ListService

@Suite struct OrderStoreLoadingTests {
    private func load(_ json: String) -> Result<CollectionState<Orders>, DataLoadError> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orders-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("orders.json")
        try? Data(json.utf8).write(to: file)
        return Result { () throws(DataLoadError) in
            CollectionState<Orders>(items: try CollectionLoading.loadItems(Orders.self, from: directory))
        }
    }

    private let valid = """
        [{"id":"o-000001","title":"Order #100001","customerName":"Zoë Kim","currency":"EUR","total":1234.5,
          "date":"2026-11-02T14:31:05Z","status":"pending",
          "items":[{"name":"Laptop","quantity":1,"unitPrice":1199.5,"requiresSignature":true},
                   {"name":"Mug","quantity":5,"unitPrice":7,"requiresSignature":false}],
          "shippingAddress":{"street":"1 Main St","city":"Oslo","postalCode":"0150","country":"NO","isResidential":true}}]
        """

    @Test func validFile_loadsExactMoneyAndRules() throws {
        let store = try load(valid).get()
        let order = try #require(store.item(id: "o-000001"))
        #expect(order.total == Money(cents: 123_450))
        #expect(order.items.count == 2)
        #expect(order.requiresSignature)
        #expect(order.isHighValue)
    }

    @Test(arguments: [
        ("[{", "orders.json: invalid JSON at byte"),
        ("{}", "orders.json: invalid JSON at byte 0: expected a JSON array"),
        (#"[{"id":"o-1"}]"#, "orders.json: [0].currency: is missing"),
        ("[1]", "orders.json: [0]: expected an object, found a number"),
        (#"[{"id":"o-1","currency":"XAU"}]"#, "orders.json: [0].currency: 'XAU' is not a currency orders may be in (AUD, BRL"),
    ])
    func badFile_isOneLineNamingFileAndField(json: String, message: String) {
        guard case .failure(let error) = load(json) else {
            Issue.record("loaded \(json)")
            return
        }
        #expect(error.description.hasPrefix(message), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func wrongTotalOrPrecision_orDuplicateID_isRejected() {
        let wrongTotal = valid.replacingOccurrences(of: #""total":1234.5"#, with: #""total":1234.6"#)
        #expect(load(wrongTotal).failureDescription?.contains("[0].total: 1234.60 is not the sum of the items (1234.50)") == true)
        let tooPrecise = valid.replacingOccurrences(of: "1199.5", with: "1199.505")
        #expect(
            load(tooPrecise).failureDescription?.contains("[0].items[0].unitPrice: 1199.505 is not an amount with at most two decimals")
                == true)
        let tooLarge = valid.replacingOccurrences(of: #""total":1234.5"#, with: #""total":1e400"#)
        #expect(load(tooLarge).failureDescription?.contains("[0].total: 1e400 is larger than an amount can be") == true)
        let twice = "[" + valid.dropFirst().dropLast() + "," + valid.dropFirst()
        #expect(load(twice).failureDescription?.contains("[1].id: 'o-000001' is used by an earlier item") == true)
        let badStatus = valid.replacingOccurrences(of: #""pending""#, with: #""lost""#)
        #expect(load(badStatus).failureDescription?.contains("[0].status") == true)
    }

    /// A name or title the API would refuse as blank is refused in a data file too, naming it.
    @Test(arguments: [
        (#""customerName":"Zoë Kim""#, #""customerName":" \t ""#, "[0].customerName: is blank"),
        (#""title":"Order #100001""#, #""title":"""#, "[0].title: is blank"),
        (#""name":"Mug""#, #""name":"\u00a0""#, "[0].items[1].name: is blank"),
    ])
    func blankNameOrTitle_isRejected(field: String, blank: String, message: String) {
        #expect(load(valid.replacingOccurrences(of: field, with: blank)).failureDescription?.contains(message) == true)
    }

    /// So are a blank task title and a blank person's name.
    @Test func blankTaskTitleOrUserName_isRejected() throws {
        let task = try JSONParser.parse(
            Array(#"{"id":"t-1","title":"  ","isActive":true,"isArchived":false,"dueDate":"2026-11-02T14:31:05Z","priority":"low"}"#.utf8))
        #expect(Result { () throws(JSONFieldError) in try TaskItem(json: task, path: "[0]") }.failureDescription == "[0].title: is blank")
        let user = try JSONParser.parse(Array(#"{"id":"u-1","name":"\n","taps":0}"#.utf8))
        #expect(Result { () throws(JSONFieldError) in try User(json: user, path: "[0]") }.failureDescription == "[0].name: is blank")
        let named = try JSONParser.parse(Array(#"{"id":"u-1","name":"Ada","taps":0}"#.utf8))
        #expect(try User(json: named, path: "[0]").name == "Ada")
    }

    @Test func missingFile_isReported() {
        let result = Result { () throws(DataLoadError) in
            try CollectionLoading.loadItems(Orders.self, from: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(result.failureDescription?.hasPrefix("orders.json: cannot be read") == true)
    }

    @Test func defaultData_isDeterministicAndValid() {
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
        let first = DefaultOrders.make(count: 500, anchor: anchor)
        #expect(first == DefaultOrders.make(count: 500, anchor: anchor))
        #expect(first.allSatisfy { $0.total == $0.itemsTotal && $0.date <= anchor })
        #expect(Set(first.map(\.id)).count == 500)
    }
}

extension Result {
    var failureDescription: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
