import Dispatch
import Foundation
import HTTPLite

/// `POST /quakes/import`: a USGS FeatureCollection upserted by id. A feature whose `updated`
/// is not newer than the stored one is left alone; a bad feature is reported and the others
/// still go in. Parsing and checking run off the event loop, so a feed of tens of megabytes
/// does not stall reads; the changes then take one trip through the journal.
enum QuakeImportRoute {
    static func add(to router: inout Router, service: ListService, maxBodyBytes: Int) {
        router.post("/quakes/import", maxBodyBytes: maxBodyBytes) { request in
            try JSONBody.require(JSONBody.json, of: request)
            let bytes = request.body
            return .deferred { pending in
                DispatchQueue.global(qos: .userInitiated).async {
                    switch parseFeatures(bytes) {
                    case .failure(let error): pending.complete(error.response)
                    case .success(let parsed): commit(parsed, service: service, pending: pending)
                    }
                }
            }
        }
    }

    /// Features that decoded, and the reasons others did not.
    private struct ParsedFeed: Sendable {
        var quakes: [Earthquake] = []
        var rejected: [(index: Int, id: String?, reason: String)] = []
    }

    private static func parseFeatures(_ bytes: [UInt8]) -> Result<ParsedFeed, HTTPError> {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return .failure(HTTPError(.badRequest, code: "malformed-json", detail: "The body is not valid JSON: \(error.description)."))
        }
        guard case .object(let collection) = document, case .array(let features)? = collection["features"] else {
            return .failure(JSONBody.invalid(field: "features", detail: "must be the array of a GeoJSON FeatureCollection."))
        }
        if let type = collection["type"], type != .string("FeatureCollection") {
            return .failure(JSONBody.invalid(field: "type", detail: "must be \"FeatureCollection\"."))
        }
        var parsed = ParsedFeed()
        var seen = Set<String>()
        for (index, feature) in features.enumerated() {
            do throws(JSONFieldError) {
                let quake = try Earthquake(feature: feature, path: "features[\(index)]")
                guard seen.insert(quake.id).inserted else {
                    throw JSONFieldError(path: "features[\(index)].id", reason: "'\(quake.id)' appears earlier in this feed")
                }
                parsed.quakes.append(quake)
            } catch {
                var id: String?
                if case .object(let object) = feature, case .string(let text)? = object["id"] { id = text }
                parsed.rejected.append((index, id, error.description))
            }
        }
        return .success(parsed)
    }

    private static func commit(_ parsed: ParsedFeed, service: ListService, pending: DeferredResponse) {
        service.writes.submit { batch in
            var inserted = 0, updated = 0, unchanged = 0
            for quake in parsed.quakes {
                switch batch.item(Quakes.self, id: quake.id) {
                case let stored? where stored.updated >= quake.updated:
                    unchanged += 1
                    continue
                case .some: updated += 1
                case nil: inserted += 1
                }
                batch.record(Quakes.self, .upsert(quake))
            }
            batch.onCommit { outcome in
                if case .failure(let rejection) = outcome { return pending.complete(rejection.httpError.response) }
                var json = JSONWriter()
                json.beginObject()
                for (name, count) in [("inserted", inserted), ("updated", updated), ("unchanged", unchanged)] {
                    json.key(name)
                    json.int(count)
                }
                json.key("rejected")
                json.beginArray()
                for rejection in parsed.rejected {
                    json.beginObject()
                    json.field("index", rejection.index)
                    json.field("id", rejection.id)
                    json.field("reason", rejection.reason)
                    json.endObject()
                }
                json.endArray()
                json.endObject()
                pending.complete(.json(json.bytes))
            }
        }
    }
}
