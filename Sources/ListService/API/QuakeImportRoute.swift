import CSystem
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

    /// Features that decoded, and a summary of the others.
    private struct ParsedFeed: Sendable {
        var quakes: [Earthquake] = []
        var rejections = RejectionSummary()
    }

    /// Why features were rejected: how many, how many for each reason, and the first few.
    /// Its size is bounded whatever the feed holds.
    struct RejectionSummary: Sendable {
        static let listed = 20
        static let distinctReasons = 50
        private(set) var count = 0
        private(set) var first: [(index: Int, id: String?, reason: String)] = []
        private(set) var countsByReason: [(reason: String, count: Int)] = []

        mutating func add(index: Int, id: String?, reason: String) {
            count += 1
            if first.count < Self.listed { first.append((index, id, reason)) }
            // The first 49 distinct reasons are counted apart, any later ones together.
            let isKnown = countsByReason.contains { $0.reason == reason }
            let key = isKnown || countsByReason.count < Self.distinctReasons - 1 ? reason : "other reasons"
            if let known = countsByReason.firstIndex(where: { $0.reason == key }) {
                countsByReason[known].count += 1
            } else {
                countsByReason.append((key, 1))
            }
        }

        func write(to json: inout JSONWriter) {
            json.key("rejected")
            json.beginArray()
            for rejection in first {
                json.beginObject()
                json.field("index", rejection.index)
                json.field("id", rejection.id)
                json.field("reason", rejection.reason)
                json.endObject()
            }
            json.endArray()
            json.field("rejectedCount", count)
            json.key("rejectedByReason")
            json.beginArray()
            for entry in countsByReason {
                json.beginObject()
                json.field("reason", entry.reason)
                json.field("count", entry.count)
                json.endObject()
            }
            json.endArray()
        }
    }

    /// One feature's limits: a USGS feature has about 40 values.
    private static let featureLimits = JSONParser.Limits(maxDepth: 16, maxValues: 2_000)
    /// A feed is refused once this many features were read and most were rejected.
    static let garbageCheckAfter = 1_000

    /// Reads the feed feature by feature (never as one tree), decoding each and summarising
    /// the rejected ones; a feed that is mostly garbage is refused early (422).
    private static func parseFeatures(_ bytes: [UInt8]) -> Result<ParsedFeed, HTTPError> {
        var parsed = ParsedFeed()
        var seen = Set<String>()
        var hasFeatures = false, index = 0
        var isFeaturesNotAnArray = false, isWrongType = false
        do {
            hasFeatures = try bytes.withUnsafeBytes { raw in
                try JSONParser.forEachElement(
                    ofArrayMember: "features", inObject: raw, elementLimits: featureLimits,
                    member: { name, value in
                        if name == "features" { isFeaturesNotAnArray = true }  // an array streams, never lands here
                        if name == "type" && value != .string("FeatureCollection") { isWrongType = true }
                    },
                    element: { feature in
                        defer { index += 1 }
                        do throws(JSONFieldError) {
                            let quake = try Earthquake(feature: feature, path: "feature")
                            guard seen.insert(quake.id).inserted else {
                                throw JSONFieldError(path: "feature.id", reason: "appears earlier in this feed")
                            }
                            parsed.quakes.append(quake)
                        } catch {
                            var id: String?
                            if case .object(let object) = feature, case .string(let text)? = object["id"] { id = String(text.prefix(200)) }
                            parsed.rejections.add(index: index, id: id, reason: error.description)
                        }
                        let read = index + 1
                        return read < garbageCheckAfter || parsed.rejections.count * 2 <= read
                    })
            }
        } catch let error as JSONParser.Failure {
            return .failure(HTTPError(.badRequest, code: "malformed-json", detail: "The body is not valid JSON: \(error.description)."))
        } catch {
            return .failure(HTTPError(.badRequest, code: "malformed-json", detail: "The body is not valid JSON."))
        }
        if isWrongType { return .failure(JSONBody.invalid(field: "type", detail: "must be \"FeatureCollection\".")) }
        guard hasFeatures && !isFeaturesNotAnArray else {
            return .failure(JSONBody.invalid(field: "features", detail: "must be the array of a GeoJSON FeatureCollection."))
        }
        let read = index
        if read >= garbageCheckAfter && parsed.rejections.count * 2 > read {
            var problems = parsed.rejections.first.map { FieldProblem("features[\($0.index)]", $0.reason) }
            problems.append(FieldProblem("features", "\(parsed.rejections.count) of the first \(read) features are invalid; the feed was refused unread past them."))
            return .failure(WriteRejection(kind: .invalid(problems), detail: "The feed is mostly invalid; nothing was imported.").httpError)
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
                parsed.rejections.write(to: &json)
                json.endObject()
                pending.complete(.json(json.bytes))
                malloc_trim(0)  // a feed's parse may have grown the heap by its size: hand that back
            }
        }
    }
}
