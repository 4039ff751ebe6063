/// A USGS FeatureCollection read feature by feature (never as one tree): the features that
/// decoded, and a bounded summary of the others.
package struct QuakeFeed: Sendable {
    var quakes: [Earthquake] = []
    var rejections = RejectionSummary()

    /// One feature's limits: a USGS feature has about 40 values.
    private static let featureLimits = JSONParser.Limits(maxDepth: 16, maxValues: 2_000)
    /// A feed is refused once this many features were read and most were rejected.
    static let garbageCheckAfter = 1_000

    /// Reads `bytes`, decoding each feature and summarising the rejected ones; a feed that is
    /// mostly garbage is refused early.
    package static func parse(_ bytes: [UInt8]) -> Result<QuakeFeed, OperationRefusal> {
        var feed = QuakeFeed()
        var ids = UniqueIDs()
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
                            try ids.claim(quake.id, at: "feature", item: "feature in this feed")
                            feed.quakes.append(quake)
                        } catch {
                            var id: String?
                            if case .object(let object) = feature, case .string(let text)? = object["id"] { id = String(text.prefix(200)) }
                            feed.rejections.add(index: index, id: id, reason: error.description)
                        }
                        let read = index + 1
                        return read < garbageCheckAfter || feed.rejections.count * 2 <= read
                    })
            }
        } catch let error as JSONParser.Failure {
            return .failure(.malformedJSON("The body is not valid JSON: \(error.description)."))
        } catch {
            return .failure(.malformedJSON("The body is not valid JSON."))
        }
        if isWrongType { return .failure(.rejected(.invalid(field: "type", .text("must be \"FeatureCollection\".")))) }
        guard hasFeatures && !isFeaturesNotAnArray else {
            return .failure(.rejected(.invalid(field: "features", .text("must be the array of a GeoJSON FeatureCollection."))))
        }
        let read = index
        if read >= garbageCheckAfter && feed.rejections.count * 2 > read {
            var problems = feed.rejections.first.map { FieldProblem("features[\($0.index)]", .text($0.reason)) }
            problems.append(
                FieldProblem(
                    "features",
                    .text("\(feed.rejections.count) of the first \(read) features are invalid; the feed was refused unread past them.")))
            return .failure(
                .rejected(WriteRejection(kind: .invalid(problems), detail: "The feed is mostly invalid; nothing was imported.")))
        }
        return .success(feed)
    }
}

/// Why features were rejected: how many, how many for each reason, and the first few. Its
/// size is bounded whatever the feed holds.
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
