import Foundation
import Testing

@testable import ListService

/// Every collection's declarations against `openapi.yaml`, both ways: the parameters its list
/// (and map) accept, the values of its view, sort and order parameters, and the fields of
/// its rows as the service writes them. A collection changed without its contract, or the
/// contract without the collection, fails here.
@Suite struct ContractTests {
    @Test func everyCollection_matchesItsContract() throws {
        let document = try OpenAPIOutline.repositoryDocument()
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
        let stores = try StorageConfiguration(dataDirectory: nil, stateDirectory: nil, anchor: anchor).initialStores(log: .discarding)
        let service = CollectionService(stores: stores, log: .discarding, clock: { anchor.addingTimeInterval(-3600) })
        var check = ContractCheck(document: document, service: service)
        CollectionRegistry.visitAll(&check)
        #expect(check.checked == 4)
    }
}

private struct ContractCheck: CollectionVisitor {
    let document: OpenAPIOutline
    let service: CollectionService
    var checked = 0

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        checked += 1
        let path = "/\(C.name)"
        guard let parameters = document.parameters(of: "get", path) else {
            Issue.record("openapi.yaml has no GET \(path)")
            return
        }
        let query = parameters.filter { $0.location == "query" }
        #expect(Set(query.map(\.name)) == Set(ListCriteria<C>.parameters(for: .list)), "GET \(path): its query parameters")
        #expect(query.count == Set(query.map(\.name)).count, "GET \(path): a parameter named twice")
        func allowed(_ name: String) -> Set<String>? { query.first { $0.name == name }?.allowed.map(Set.init) }
        if let view = C.viewParameter {
            #expect(allowed(view) == Set(C.View.allCases.map(\.rawValue)), "GET \(path): the values of \(view)")
        }
        #expect(allowed("sort") == Set(C.SortField.allCases.map(\.rawValue)), "GET \(path): the values of sort")
        #expect(allowed("group") == Set(C.Grouping.allCases.map(\.rawValue)), "GET \(path): the values of group")
        #expect(
            allowed("order") == Set(SortDirection.allCases.map(\.rawValue) + C.directionAliases.keys), "GET \(path): the values of order")
        let export = document.parameters(of: "get", path + "/export")?.filter { $0.location == "query" }.map(\.name)
        #expect(export.map(Set.init) == Set(ListCriteria<C>.parameters(for: .export)), "GET \(path)/export: its query parameters")
        if C.markerSort != nil {
            let map = document.parameters(of: "get", path + "/map")?.filter { $0.location == "query" }.map(\.name)
            #expect(map.map(Set.init) == Set(ListCriteria<C>.parameters(for: .map)), "GET \(path)/map: its query parameters")
        }
        checkRows(C.self, path: path)
    }

    /// The row schema's properties are the fields rows carry: none undeclared, every required
    /// one present, every declared one written by some row.
    private func checkRows<C: ListCollection>(_ collection: C.Type, path: String) {
        guard let name = document.schemaReferenced(by: "get", path, inside: "Row"), let schema = document.schema(name) else {
            Issue.record("GET \(path): no row schema found")
            return
        }
        // A grouped list's rows carry their section's key as well.
        let grouped = C.Grouping.allCases.first.map { "limit=500&group=\($0.rawValue)" } ?? "limit=500"
        guard let (page, _) = try? list(C.self, "limit=500", service: service),
            let (groupedPage, _) = try? list(C.self, grouped, service: service),
            let plainRows = page["items"] as? [[String: Any]], let groupedRows = groupedPage["items"] as? [[String: Any]],
            case let rows = plainRows + groupedRows, !rows.isEmpty
        else {
            Issue.record("GET \(path): no rows to hold against \(name)")
            return
        }
        let written = rows.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        #expect(written.subtracting(schema.properties).isEmpty, "\(name): fields rows carry but the contract lacks")
        #expect(Set(schema.properties).subtracting(written).isEmpty, "\(name): fields the contract declares but no row carries")
        for row in rows.prefix(50) {
            #expect(Set(schema.required).subtracting(row.keys).isEmpty, "\(name): a row lacks a required field")
        }
    }
}
