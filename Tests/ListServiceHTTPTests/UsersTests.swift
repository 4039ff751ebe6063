import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// The tap counter, end to end: list, search, sort, tap, durability.
@Suite struct UsersTests {
    private let people = [
        User(id: "u-000001", name: "Ada Lovelace", taps: 3),
        User(id: "u-000002", name: "alan Turing", taps: 7),
        User(id: "u-000003", name: "Zoë Ölund", taps: 3),
        User(id: "u-000004", name: "Zoe Adams", taps: 1),
        User(id: "u-000005", name: "Plato", taps: 0),
    ]

    private func service(_ users: [User]) -> CollectionService {
        CollectionService(stores: [CollectionState<Users>(items: users)], log: .discarding)
    }

    private func rows(_ query: String, acceptLanguage: String? = nil) throws -> [[String: Any]] {
        let (page, _) = try list(Users.self, query, service: service(people), acceptLanguage: acceptLanguage)
        return page["items"] as? [[String: Any]] ?? []
    }

    private func ids(_ query: String) throws -> [String] { try rows(query).compactMap { $0["id"] as? String } }

    @Test func sortsByNameOrTaps_tiesById() throws {
        #expect(try ids("") == ["u-000001", "u-000002", "u-000005", "u-000004", "u-000003"], "case- and accent-insensitive, then exact")
        #expect(try ids("sort=taps") == ["u-000002", "u-000001", "u-000003", "u-000004", "u-000005"], "most taps first; ties by id")
        #expect(try ids("sort=taps&order=asc") == ["u-000005", "u-000004", "u-000001", "u-000003", "u-000002"])
        #expect(try ids("view=all&sort=name&order=desc").first == "u-000003")
    }

    @Test func searchesTheName() throws {
        #expect(try ids("q=zoe") == ["u-000004", "u-000003"])
        #expect(try ids("q=TURING") == ["u-000002"])
        #expect(try ids("q=nobody").isEmpty)
    }

    @Test func rowsCarryInitialsAndATranslatedTapsLabel() throws {
        let english = Dictionary(uniqueKeysWithValues: try rows("").map { ($0["id"] as? String ?? "", $0) })
        #expect(english["u-000001"]?["initials"] as? String == "AL")
        #expect(english["u-000002"]?["initials"] as? String == "AT")
        #expect(english["u-000003"]?["initials"] as? String == "ZÖ")
        #expect(english["u-000005"]?["initials"] as? String == "P")
        #expect(english["u-000004"]?["tapsLabel"] as? String == "1 tap")
        #expect(english["u-000001"]?["tapsLabel"] as? String == "3 taps")
        #expect(english["u-000005"]?["tapsLabel"] as? String == "0 taps")
        #expect(english["u-000001"]?["taps"] as? Int == 3)
        #expect(try rows("q=zoe adams", acceptLanguage: "de-DE").first?["tapsLabel"] as? String == "1 Tipp")
        #expect(try rows("q=plato&locale=fr-FR").first?["tapsLabel"] as? String == "0 appui")
        #expect(try rows("q=alan&locale=es").first?["tapsLabel"] as? String == "7 toques")
        #expect(try rows("q=alan&locale=ja-JP").first?["tapsLabel"] as? String == "7回タップ")
    }

    /// A label's count is written as the locale writes numbers, as the counts beside it are.
    @Test func aTapsLabel_writesItsCountAsTheLocaleDoes() throws {
        let keen = service([User(id: "u-000001", name: "Keen", taps: 12_345)])
        func label(_ locale: String) throws -> String? {
            let (page, _) = try list(Users.self, "locale=\(locale)", service: keen)
            return (page["items"] as? [[String: Any]])?.first?["tapsLabel"] as? String
        }
        #expect(try label("en-US") == "12,345 taps")
        #expect(try label("de-DE") == "12.345 Tipps")
        #expect(try label("ja-JP") == "12,345回タップ")
        let french = try #require(try label("fr-FR"))
        #expect(french.hasPrefix("12") && french.hasSuffix("345 appuis") && !french.contains("12345"), "\(french)")
    }

    @Test func badParameters_nameTheParameter() throws {
        for (query, parameter) in [("view=active", "view"), ("sort=date", "sort"), ("filter=x", "filter")] {
            do {
                _ = try rows(query)
                Issue.record("\(query) was accepted")
            } catch let error as ListServiceError {
                #expect(error.parameter == parameter)
            }
        }
    }

    @Test func createTapRenameDelete_overHTTP() throws {
        let service = service(people)
        let router = ServiceRoutes.makeHandler(service: service)
        let created = router.send(.post, "/users", json: #"{"name": "  Grace Hopper "}"#)
        #expect(created.status == .created)
        #expect(created.headers["Location"] == "/users/u-000006", "ids continue after the highest")
        #expect(created.bodyJSON["name"] as? String == "Grace Hopper")
        #expect(created.bodyJSON["taps"] as? Int == 0)
        #expect(router.send(.post, "/users/u-000006/tap").bodyJSON["tapsLabel"] as? String == "1 tap")
        let second = router.send(.post, "/users/u-000006/tap", query: [("locale", "de")])
        #expect(second.status == .ok)
        #expect(second.bodyJSON["tapsLabel"] as? String == "2 Tipps")
        // An ETag read before the last tap is stale: a third tap based on it is refused.
        let stale = created.headers["ETag"] ?? ""
        #expect(router.send(.post, "/users/u-000006/tap", headers: ["If-Match": stale]).status == .preconditionFailed)
        #expect(service.engine(Users.self).state.item(id: "u-000006")?.taps == 2)
        // The list shows the change at once.
        let (page, _) = try list(Users.self, "sort=taps&q=grace", service: service)
        #expect((page["items"] as? [[String: Any]])?.first?["taps"] as? Int == 2)
        let renamed = router.send(.patch, "/users/u-000006", json: #"{"name": "Grace B. Hopper"}"#)
        #expect(renamed.bodyJSON["initials"] as? String == "GH")
        #expect(router.send(.delete, "/users/u-000006").status == .noContent)
        #expect(router.send(.post, "/users/u-000006/tap").status == .notFound)
        #expect(router.send(.get, "/users/u-000006").status == .notFound)
    }

    @Test func refusedWrites_changeNothing() {
        let service = service(people)
        let router = ServiceRoutes.makeHandler(service: service)
        let empty = router.send(.post, "/users", json: #"{"name": "   "}"#)
        #expect(empty.status == .unprocessableContent)
        #expect((empty.bodyJSON["errors"] as? [[String: Any]])?.first?["field"] as? String == "name")
        #expect(router.send(.post, "/users", json: #"{"name": "X", "taps": 99}"#).status == .unprocessableContent)
        #expect(router.send(.post, "/users", json: #"{"name": 4}"#).status == .unprocessableContent)
        #expect(router.send(.post, "/users/u-000001/wave").status == .notFound)
        let full = CollectionService(
            stores: [CollectionState<Users>(items: [User(id: "u-1", name: "Max", taps: User.maxTaps)])], log: .discarding)
        #expect(ServiceRoutes.makeHandler(service: full).send(.post, "/users/u-1/tap").status == .conflict)
        #expect(service.engine(Users.self).state.count == people.count)
        #expect(service.engine(Users.self).state.item(id: "u-000001") == people[0])
    }

    @Test func taps_surviveARestart_andUsersJSONIsReadFromTheDataDirectory() throws {
        try withTemporaryDirectory { data in
            let file = #"[{"id": "u-000010", "name": "Ada Lovelace", "taps": 41}, {"id": "u-000011", "name": "Alan Turing", "taps": 0}]"#
            try writeDataFiles(to: data)  // the other collections' files, empty
            try Data(file.utf8).write(to: URL(fileURLWithPath: data + "/users.json"))
            try withTemporaryDirectory { state in
                let storage = StorageConfiguration(dataDirectory: data, stateDirectory: state, anchor: Date())
                var service = try CollectionService.open(storage, log: .discarding)
                #expect(service.engine(Users.self).state.count == 2)
                #expect(ServiceRoutes.makeHandler(service: service).send(.post, "/users/u-000010/tap").bodyJSON["taps"] as? Int == 42)
                #expect(
                    ServiceRoutes.makeHandler(service: service).send(.post, "/users", json: #"{"name": "Edsger"}"#).headers["Location"]
                        == "/users/u-000012")
                service.writes.finishBackgroundWork()  // as a stopping server does: one process at a time owns the directory
                service = try CollectionService.open(storage, log: .discarding)
                #expect(service.engine(Users.self).state.item(id: "u-000010")?.taps == 42)
                #expect(service.engine(Users.self).state.item(id: "u-000012")?.name == "Edsger")
            }
        }
    }

    @Test func aDataDirectoryWithoutUsersJSON_servesTheEmbeddedPeople_andABadFileStopsStartUp() throws {
        try withTemporaryDirectory { data in
            try writeDataFiles(to: data)  // the other collections' files, empty
            let storage = StorageConfiguration(dataDirectory: data, stateDirectory: nil, anchor: Date())
            let service = try CollectionService.open(storage, log: .discarding)
            #expect(service.engine(Users.self).state.count == DefaultUsers.make().count)
            try Data(#"[{"id": "u-1", "name": "Ada", "taps": -1}]"#.utf8).write(to: URL(fileURLWithPath: data + "/users.json"))
            do {
                _ = try CollectionService.open(storage, log: .discarding)
                Issue.record("a negative tap count was accepted")
            } catch {
                #expect("\(error)".contains("users.json: [0].taps"))
            }
        }
    }

    @Test func defaultPeople_areAFewHundred_withIdsInSequence() {
        let people = DefaultUsers.make()
        #expect(people.count == 300)
        #expect(people.first?.id == "u-000001" && people.last?.id == "u-000300")
        #expect(Set(people.map(\.name)).count > 200, "varied names")
        #expect(people == DefaultUsers.make(), "deterministic")
    }
}
