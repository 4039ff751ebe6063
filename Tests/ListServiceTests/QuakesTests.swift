import Foundation
import Testing

@testable import ListService

@Suite struct QuakesTests {
    static let usgsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/usgs")

    static func loadFeed(_ name: String) throws -> [Earthquake] {
        try Prerequisite.require(hasSharedData, "shared/data/usgs")
        let data = try Data(contentsOf: usgsDirectory.appendingPathComponent(name))
        return try data.withUnsafeBytes { bytes in
            try Result { () throws(DataLoadError) in try Quakes.decodeItems(DataFileBytes(bytes: bytes, name: name)) }.get()
        }
    }

    /// The real feeds live in `shared/`, beside the repository; tests that read them skip
    /// without it, or fail in CI.
    static var hasSharedData: Bool { FileManager.default.fileExists(atPath: usgsDirectory.path) }

    @Test(
        Prerequisite.needs(hasSharedData, "shared/data/usgs"),
        arguments: [("all_week_2018-02-07.geojson", 1707), ("2.5_month_2025-10-29.geojson", 1349)])
    func realUSGSFeeds_loadCompletely(name: String, count: Int) throws {
        let quakes = try Self.loadFeed(name)
        #expect(quakes.count == count)
        #expect(Set(quakes.map(\.id)).count == count)
    }

    @Test(Prerequisite.needs(hasSharedData, "shared/data/usgs")) func realFeed_keepsNegativeMagnitudesAndDepths() throws {
        let quakes = try Self.loadFeed("all_week_2018-02-07.geojson")
        #expect(quakes.contains { ($0.magnitude ?? 0) < 0 })
        #expect(quakes.contains { $0.depthKm < 0 })
        let negative = try #require(quakes.first { $0.id == "mb80280489" })
        #expect(negative.magnitude == -0.07)
    }

    @Test(Prerequisite.needs(hasSharedData, "shared/data/usgs")) func searchFindsHofnInIceland_onItsDay() throws {
        let service = makeService(quakes: try Self.loadFeed("2.5_month_2025-10-29.geojson"))
        let (page, _) = try list(Quakes.self, "date=2025-10-29&q=hofn", service: service)
        let rows = page["items"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["id"] as? String } == ["us6000rk65"])
        #expect(rows.first?["place"] as? String == "105 km WNW of Höfn, Iceland")
        #expect(rows.first?["formattedMagnitude"] as? String == "M 5.4")
        #expect(rows.first?["formattedTime"] as? String == "Oct 29, 2025 at 4:46\u{202F}PM")
    }

    private var quakes: [Earthquake] {
        func quake(_ id: String, _ magnitude: Double?, _ place: String?, _ time: String) -> Earthquake {
            let date = ISO8601.parse(time)!
            return Earthquake(
                id: id, magnitude: magnitude, place: place, time: date, updated: date, longitude: -150, latitude: 61, depthKm: -1.5)
        }
        return [
            quake("q1", 4.3, "10 km N of Anchorage, Alaska", "2026-11-20T01:00:00Z"),
            quake("q2", nil, nil, "2026-11-20T02:00:00Z"),
            quake("q3", 2.1, "5 km S of Fairbanks, Alaska", "2026-11-20T23:30:00Z"),
            quake("q4", 6.0, "Off the coast of Japan", "2026-11-20T12:00:00Z"),
            quake("q5", 4.3, "Central Alaska", "2026-11-19T23:00:00Z"),
        ]
    }

    @Test func list_isOneDayInTheClientsZone_newestFirst() throws {
        let service = makeService(quakes: quakes)
        let (utc, _) = try list(Quakes.self, "", service: service)
        #expect(ids(utc) == ["q3", "q4", "q2", "q1"])
        #expect((utc["criteria"] as? [String: Any])?["date"] as? String == "2026-11-20", "today by default")
        let (anchorage, _) = try list(Quakes.self, "date=2026-11-19&tz=America/Anchorage", service: service)
        #expect(ids(anchorage) == ["q2", "q1", "q5"], "Nov 19 in Alaska runs 09:00Z to 09:00Z")
        let (aliases, _) = try list(Quakes.self, "sort=magnitude&order=forward", service: service)
        #expect(ids(aliases) == ["q2", "q3", "q1", "q4"], "unknown magnitude first ascending")
    }

    @Test func rows_showUnknownsPlainly() throws {
        let (page, _) = try list(Quakes.self, "date=2026-11-20", service: makeService(quakes: quakes))
        let unknown = (page["items"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "q2" }
        #expect(unknown?["place"] as? String == "Unknown location")
        #expect(unknown?["formattedMagnitude"] as? String == "M ?")
        #expect(unknown?["magnitude"] is NSNull)
        #expect(unknown?["depthKm"] as? Double == -1.5)
    }

    @Test(arguments: ["", "q=alaska", "q=japan", "date=2026-11-19", "date=2026-11-19&tz=America/Anchorage", "q=zzz"])
    func listAndMap_holdTheSameIDs(query: String) throws {
        let service = makeService(quakes: quakes)
        let (listPage, _) = try list(Quakes.self, query + (query.isEmpty ? "" : "&") + "limit=500", service: service)
        let (mapPage, _) = try list(Quakes.self, query, purpose: .map, service: service)
        #expect(Set(ids(listPage)) == Set(ids(mapPage)))
        #expect(listPage["total"] as? Int == mapPage["total"] as? Int)
    }

    @Test func map_drawsLargestFirst() throws {
        let (map, _) = try list(Quakes.self, "", purpose: .map, service: makeService(quakes: quakes))
        #expect(ids(map) == ["q4", "q1", "q3", "q2"])
        let marker = (map["items"] as? [[String: Any]])?.first
        #expect(marker?["markerRadius"] as? Double == 24)
        #expect(throws: ListServiceError.self) { try list(Quakes.self, "sort=time", purpose: .map, service: makeService(quakes: quakes)) }
    }

    @Test func markers_carryTheirCallout_andDepthIsFormattedForTheLocale() throws {
        var deep = quakes
        deep[0].depthKm = 10
        deep[3].depthKm = 10.46
        let service = makeService(quakes: deep)
        let (map, _) = try list(Quakes.self, "locale=de-DE&tz=Europe/Berlin", purpose: .map, service: service)
        let markers = Dictionary(uniqueKeysWithValues: (map["items"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
        #expect(markers["q4"]?["place"] as? String == "Off the coast of Japan")
        #expect(markers["q4"]?["formattedMagnitude"] as? String == "M 6,0")
        #expect(markers["q4"]?["formattedDepth"] as? String == "10,5 km")
        #expect((markers["q4"]?["formattedTime"] as? String)?.contains("13:00") == true, "12:00Z in Berlin")
        #expect(markers["q1"]?["formattedDepth"] as? String == "10 km")
        #expect(markers["q2"]?["place"] as? String == "Unbekannter Ort")
        #expect(markers["q2"]?["formattedMagnitude"] as? String == "M ?")
        #expect(markers["q4"]?["magnitudeBand"] as? String == "6plus")
        #expect(markers["q2"]?["magnitudeBand"] is NSNull, "unknown magnitude, no band")
        #expect(markers["q2"]?["formattedDepth"] as? String == "-1,5 km", "above sea level")
        // The list's rows say the same as the markers.
        let (rows, _) = try list(Quakes.self, "locale=de-DE&tz=Europe/Berlin", service: service)
        let row = (rows["items"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "q4" }
        for field in ["place", "formattedMagnitude", "magnitudeBand", "formattedTime", "formattedDepth"] {
            #expect(row?[field] as? String == markers["q4"]?[field] as? String, "\(field)")
        }
        let (english, _) = try list(Quakes.self, "q=japan", service: service)
        #expect((english["items"] as? [[String: Any]])?.first?["formattedDepth"] as? String == "10.5 km")
    }

    @Test func selection_isEchoedByListAndMapOfTheSession() throws {
        let service = makeService(quakes: quakes)
        let session = service.sessions.session(id: "s", adoptsUnknownID: true, now: service.now).session
        #expect(try list(Quakes.self, "", session: session, service: service).0["selectedId"] is NSNull)
        session.select("q4", in: "quakes")
        let (listPage, outcome) = try list(Quakes.self, "", session: session, service: service)
        #expect(listPage["selectedId"] as? String == "q4")
        #expect(outcome != .sessionHit, "a new selection is a new response")
        #expect(try list(Quakes.self, "", session: session, purpose: .map, service: service).0["selectedId"] as? String == "q4")
        #expect(try list(Quakes.self, "", session: session, service: service).1 == .sessionHit)
    }

    @Test func badDate_namesTheParameter() {
        for query in ["date=2026-13-01", "date=yesterday", "date=2026-02-30"] {
            do {
                _ = try list(Quakes.self, query, service: makeService(quakes: quakes))
                Issue.record("accepted \(query)")
            } catch let error as ListServiceError {
                #expect(error.parameter == "date")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}

@Suite struct QuakeFeedDecodingTests {
    private func decode(_ text: String) -> Result<[Earthquake], DataLoadError> {
        Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(DataLoadError) in try Quakes.decodeItems(DataFileBytes(bytes: bytes, name: "quakes.geojson")) }
        }
    }

    @Test func nullsAndUnknownProperties_load() throws {
        let feed = """
            {"type":"FeatureCollection","bbox":[1,2,3],"metadata":{"count":1},"features":[
             {"type":"Feature","id":"ak1","properties":{"mag":null,"place":null,"time":1761756390056,"updated":1761756400000,
              "felt":null,"cdi":null,"tz":null,"alert":null,"types":",origin,"},
              "geometry":{"type":"Point","coordinates":[-150.5,61.2,-2.3]}}]}
            """
        let quake = try #require(try decode(feed).get().first)
        #expect(quake.magnitude == nil && quake.place == nil)
        #expect(quake.depthKm == -2.3)
        #expect(quake.time == Date(timeIntervalSince1970: 1_761_756_390.056))
    }

    @Test func badFeature_isNamedByItsPath() {
        let feed = #"{"features":[{"id":"a","properties":{"time":1,"updated":1},"geometry":{"coordinates":[200,0,0]}}]}"#
        guard case .failure(let error) = decode(feed) else {
            Issue.record("accepted a longitude of 200")
            return
        }
        #expect(error.description == "quakes.geojson: features[0].geometry.coordinates[0]: expected a number in -180.0...180.0")
    }
}

@Suite struct DecimalNumbersTests {
    /// Every number a data file holds, as written.
    private func numbers(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.matches(of: /[-0-9][0-9.eE+-]*/).map { String(text[$0.range]) }
    }

    @Test func embeddedQuakes_keepTheFeedsPrecision_inSnapshotsAndRows() throws {
        let quakes = DefaultQuakes.make(anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let noisy = numbers(in: Quakes.encodeDataFile(quakes)).filter { $0.contains(".") && $0.split(separator: ".")[1].count > 4 }
        #expect(noisy.count == 0, "float noise such as \(noisy.prefix(3))")
        let service = makeService(quakes: quakes)
        let (page, _) = try list(Quakes.self, "date=2026-11-19&limit=500", service: service)
        for row in page["items"] as? [[String: Any]] ?? [] {
            if let magnitude = row["magnitude"] as? Double {
                #expect((magnitude * 100).rounded() / 100 == magnitude)
                #expect("\(magnitude)".count <= 5)
            }
        }
    }
}
