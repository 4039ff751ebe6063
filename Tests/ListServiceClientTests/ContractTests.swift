import Foundation
import Testing

@testable import ListServiceClient

/// The client's types against `openapi.yaml`: every example of an answer decodes with them,
/// and every field a schema requires is a property of the type that stands for it.
@Suite struct ContractTests {
    /// The contract's inline JSON examples, each with the path and method it sits under and
    /// whether it is a request body.
    static func examples() throws -> [(path: String, method: String, isRequest: Bool, json: Data)] {
        var url = URL(fileURLWithPath: #filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        let text = try String(contentsOf: url.deletingLastPathComponent().appendingPathComponent("openapi.yaml"), encoding: .utf8)
        var found: [(String, String, Bool, Data)] = []
        var path = ""
        var method = ""
        var isRequest = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("components:") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("    "), !line.hasPrefix("     "), trimmed.hasSuffix(":") { method = String(trimmed.dropLast()) }
            if trimmed == "requestBody:" { isRequest = true }
            if trimmed == "responses:" { isRequest = false }
            if trimmed.hasPrefix("example: {") { found.append((path, method, isRequest, Data(trimmed.dropFirst(9).utf8))) }
        }
        return found
    }

    /// Decodes `data` as what `method` on `path` answers; the type's name, nil when the client has none for it.
    static func decodeAnswer(of method: String, _ path: String, _ data: Data) throws -> Any? {
        let decoder = JSONDecoder()
        switch (method, path) {
        case ("get", "/orders"): return try decoder.decode(ListPage<OrderRow>.self, from: data)
        case ("get", "/orders/{id}"), ("post", "/orders"), ("patch", "/orders/{id}"):
            return try decoder.decode(OrderDetail.self, from: data)
        case ("get", "/tasks"): return try decoder.decode(ListPage<TaskRow>.self, from: data)
        case ("get", "/tasks/{id}"), ("post", "/tasks"), ("patch", "/tasks/{id}"): return try decoder.decode(TaskDetail.self, from: data)
        case ("get", "/users"): return try decoder.decode(ListPage<UserRow>.self, from: data)
        case ("get", "/users/{id}"), ("post", "/users"), ("patch", "/users/{id}"), ("post", "/users/{id}/tap"):
            return try decoder.decode(UserRow.self, from: data)
        case ("get", "/quakes"): return try decoder.decode(ListPage<QuakeRow>.self, from: data)
        case ("get", "/quakes/map"): return try decoder.decode(ListPage<QuakeMarker>.self, from: data)
        case ("get", "/quakes/{id}"): return try decoder.decode(QuakeDetail.self, from: data)
        default: return nil
        }
    }

    @Test func everyListAndItemExampleDecodes() throws {
        let answers = try Self.examples().filter { !$0.isRequest }
        var decoded: Set<String> = []
        for example in answers {
            do {
                if try Self.decodeAnswer(of: example.method, example.path, example.json) != nil { decoded.insert(example.path) }
            } catch {
                Issue.record("\(example.method) \(example.path): \(error)")
            }
        }
        #expect(
            decoded.isSuperset(of: [
                "/orders", "/orders/{id}", "/tasks", "/tasks/{id}", "/users", "/users/{id}", "/quakes", "/quakes/map", "/quakes/{id}",
            ]))
    }

    @Test func everyRequiredFieldIsAPropertyOfTheClientsType() throws {
        let outline = try OpenAPIOutline.repositoryDocument()
        let examples = try Self.examples().filter { !$0.isRequest }
        func example(_ method: String, _ path: String) throws -> Any {
            let found = try #require(examples.first { $0.method == method && $0.path == path })
            return try #require(try Self.decodeAnswer(of: method, path, found.json))
        }
        let orders = try #require(try example("get", "/orders") as? ListPage<OrderRow>)
        let quakes = try #require(try example("get", "/quakes") as? ListPage<QuakeRow>)
        let markers = try #require(try example("get", "/quakes/map") as? ListPage<QuakeMarker>)
        let section = Section(key: "a", title: "A", count: 1, formattedCount: "1", firstIndex: 0, cursor: "")
        let snapshot = try JSONDecoder().decode(
            LiveSnapshot<UserRow>.self,
            from: Data(#"{"items":[],"total":0,"formattedTotal":"0","counts":{},"formattedCounts":{},"criteria":{},"v":1}"#.utf8))
        let delta = try JSONDecoder().decode(
            LiveDelta<UserRow>.self, from: Data(#"{"v":2,"base":1,"at":0,"total":0,"formattedTotal":"0","ops":[]}"#.utf8))
        let instances: [(schema: String, value: Any)] = [
            ("OrderList", orders), ("OrderRow", try #require(orders.items.first)), ("OrderDetail", try example("get", "/orders/{id}")),
            ("TaskList", try example("get", "/tasks")), ("TaskDetail", try example("get", "/tasks/{id}")),
            ("TaskRow", try #require((try example("get", "/tasks") as? ListPage<TaskRow>)?.items.first)),
            ("UserList", try example("get", "/users")), ("UserRow", try example("get", "/users/{id}")),
            ("QuakeList", quakes), ("QuakeRow", try #require(quakes.items.first)), ("QuakeDetail", try example("get", "/quakes/{id}")),
            ("QuakeMap", markers), ("Section", section), ("LiveSnapshot", snapshot), ("LiveDelta", delta),
            ("LiveSelection", try JSONDecoder().decode(LiveSelection.self, from: Data(#"{"selectedId":null}"#.utf8))),
            ("ShippingAddress", ShippingAddress(street: "", city: "", postalCode: "", country: "", isResidential: false)),
        ]
        for (schema, value) in instances {
            let required = try #require(outline.schema(schema)?.required, "\(schema) is in openapi.yaml")
            // A detail holds its row's fields in `row`.
            let mirror = Mirror(reflecting: value)
            let row = mirror.children.first { $0.label == "row" }.map { Mirror(reflecting: $0.value).children.compactMap(\.label) } ?? []
            let properties = Set(mirror.children.compactMap(\.label) + row)
            #expect(Set(required).subtracting(properties).isEmpty, "\(schema) lacks \(Set(required).subtracting(properties).sorted())")
        }
        // A marker's fields, declared inside QuakeMap's items.
        let marker = Set(Mirror(reflecting: try #require(markers.items.first)).children.compactMap(\.label))
        #expect(
            marker.isSuperset(of: [
                "id", "latitude", "longitude", "magnitude", "markerRadius", "place", "formattedMagnitude", "magnitudeBand",
                "formattedTime", "formattedDepth",
            ]))
    }

    @Test func everyWriteBodyTheContractRequiresCanBeSent() throws {
        let outline = try OpenAPIOutline.repositoryDocument()
        let order = OrdersEndpoint.NewOrder(
            customerName: "", currency: "USD", items: [],
            shippingAddress: ShippingAddress(street: "", city: "", postalCode: "", country: "", isResidential: false))
        let task = TasksEndpoint.Fields(title: "", dueDate: "")
        for (schema, body) in [("OrderCreate", order as any Encodable), ("TaskCreate", task)] {
            let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(body)) as? [String: Any])
            let required = try #require(outline.schema(schema)?.required)
            #expect(Set(required).isSubset(of: object.keys), "\(schema)")
        }
    }
}
