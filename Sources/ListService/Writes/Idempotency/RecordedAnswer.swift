/// The first answer to a keyed write, kept so that a retry with the same key gets it again.
/// It is saved in the same batch as the write's changes (the same journal, the same database
/// transaction), so a crash between the commit and the answer leaves both or neither.
package struct RecordedAnswer: Sendable, Equatable {
    /// What the write did, which decides the answer's status.
    package enum Outcome: String, Sendable {
        case created, updated, unchanged, deleted
        /// A collection's operation (an import) finished.
        case done
    }

    package let request: KeyedRequest
    /// The collection whose journal keeps the answer (the one the write changed).
    package let collection: String
    package let outcome: Outcome
    /// The item the write created or changed (a created item's `Location`).
    package let itemID: String?
    /// The answer's `ETag` (the item's version and the body's digest).
    package let etag: String?
    /// The answer's JSON body (empty for a deletion).
    package let body: [UInt8]
    /// When it was recorded, in milliseconds since 1970.
    package let recordedAt: Int64

    package init(
        request: KeyedRequest, collection: String, outcome: Outcome, itemID: String? = nil, etag: String? = nil, body: [UInt8],
        recordedAt: Int64
    ) {
        self.request = request
        self.collection = collection
        self.outcome = outcome
        self.itemID = itemID
        self.etag = etag
        self.body = body
        self.recordedAt = recordedAt
    }

    /// The answer as storage keeps it: a JSON object whose `body` is a string, so a store that
    /// normalises JSON (PostgreSQL's `jsonb`) gives back the same bytes.
    package var record: [UInt8] {
        var json = JSONWriter(reservingCapacity: body.count + 256)
        json.beginObject()
        json.field("owner", request.owner)
        json.field("key", request.key)
        json.field("fingerprint", request.fingerprint)
        json.field("collection", collection)
        json.field("outcome", outcome.rawValue)
        json.field("id", itemID)
        json.field("etag", etag)
        json.field("body", String(decoding: body, as: UTF8.self))
        json.key("at")
        json.number(text: String(recordedAt))
        json.endObject()
        return json.bytes
    }

    /// Reads a record `record` wrote; `path` names it in errors.
    package init(record: [UInt8], path: String) throws(JSONFieldError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(record)
        } catch {
            throw JSONFieldError(path: path, reason: "is not JSON: \(error.description)")
        }
        try self.init(JSONFields(value, path: path))
    }

    /// Reads a record from its parsed fields.
    package init(_ fields: JSONFields) throws(JSONFieldError) {
        let outcome = try fields.string("outcome")
        guard let known = Outcome(rawValue: outcome) else {
            throw JSONFieldError(path: fields.fieldPath("outcome"), reason: "unknown outcome '\(outcome)'")
        }
        guard let at = try fields.number("at").int64 else {
            throw JSONFieldError(path: fields.fieldPath("at"), reason: "not a whole number")
        }
        self.init(
            request: KeyedRequest(
                owner: try fields.string("owner"), key: try fields.string("key"), fingerprint: try fields.string("fingerprint")),
            collection: try fields.string("collection"), outcome: known, itemID: try fields.optionalString("id"),
            etag: try fields.optionalString("etag"), body: Array(try fields.string("body").utf8), recordedAt: at)
    }
}
