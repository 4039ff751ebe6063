import Foundation

/// One computed response body, ready for the wire, shared by every session that asks for it.
public final class ListPage: Sendable {
    public let body: [UInt8]
    public let etag: String
    /// The data version it was computed from; a newer version makes it stale.
    public let dataVersion: UInt64
    /// Time-relative criteria (this month, today) go stale at this instant.
    public let validUntil: Date

    public init(body: [UInt8], dataVersion: UInt64, validUntil: Date = .distantFuture) {
        self.body = body
        self.etag = ETag.make(for: body)
        self.dataVersion = dataVersion
        self.validUntil = validUntil
    }

    /// The same page with the session's selection added as its last member, `selectedId`.
    func echoing(selectedID: String?) -> ListPage {
        var json = JSONWriter(reservingCapacity: 64)
        json.beginObject()
        json.key("selectedId")
        json.optionalString(selectedID)
        let member = json.bytes.dropFirst()  // `"selectedId":…` without the opening brace
        var combined = Array(body.dropLast())  // the page without its closing brace
        combined.append(UInt8(ascii: ","))
        combined.append(contentsOf: member)
        combined.append(UInt8(ascii: "}"))
        return ListPage(body: combined, dataVersion: dataVersion, validUntil: validUntil)
    }

    func isFresh(dataVersion: UInt64, now: Date) -> Bool {
        self.dataVersion == dataVersion && now < validUntil
    }
}

/// Whether serving a page cost any work, for `X-Cache` and the counters.
public enum CacheOutcome: Sendable, Equatable {
    case sessionHit
    case sharedHit
    case miss

    public var isHit: Bool { self != .miss }
}
