import Foundation
import Basics
import Synchronization

/// One computed response body, ready for the wire, shared by every session that asks for it.
/// A grouped list's page is its own leading bytes followed by the list's sections
/// (`PageTail`), which every page of the list shares: they are neither copied nor hashed
/// again per page.
package final class ListPage: Sendable {
    /// The body's own bytes: all of it, or all but `tail`.
    package let lead: [UInt8]
    /// The end shared with other pages, sent after `lead`.
    let tail: PageTail?
    package let etag: String
    /// Says whether the list it came from is still current; a change to the list revokes it.
    let token: CacheValidity
    /// Likewise for the counts it shows, if any.
    let countsToken: CacheValidity?
    /// Time-relative criteria (this month, today) go stale at this instant.
    package let validUntil: Date
    /// The body compressed, once some client asked for it (see `compressed(_:)`). Behind a
    /// lock, not an `AtomicLazyReference`, whose generic load (not specialized across the
    /// module boundary) cost a warm hit more than the lock does.
    private let compressedBody = Locked<EncodedBody?>(nil)

    /// `body`: the whole body, or its lead when `tail` follows. A page of one item's row
    /// carries the item's version in its ETag (`"<version>-<bytes>"`), so `If-Match` on a
    /// write can compare versions whatever representation it was read in.
    init(
        body: [UInt8], tail: PageTail? = nil, token: CacheValidity, countsToken: CacheValidity? = nil,
        validUntil: Date = .distantFuture, itemVersion: String? = nil
    ) {
        self.lead = body
        self.tail = tail
        if let tail {
            etag = ETag.make(lead: body, tail: tail)
        } else {
            etag = itemVersion.map { "\"\($0)-\(ETag.hexBodyDigest(body))\"" } ?? ETag.make(for: body)
        }
        self.token = token
        self.countsToken = countsToken
        self.validUntil = validUntil
    }

    /// The whole body in one buffer (the lead and the tail joined).
    package var body: [UInt8] { tail.map { lead + $0.bytes } ?? lead }

    /// The tail's bytes, sent after `lead`; nil when `lead` is the whole body.
    package var tailBytes: [UInt8]? { tail?.bytes }

    /// The body's size in bytes.
    package var bodyCount: Int { lead.count + (tail?.bytes.count ?? 0) }

    /// The same page with the session's selection added as a member, `selectedId`: the last
    /// one, or the last before a shared tail.
    func echoing(selectedID: String?) -> ListPage {
        var json = JSONWriter(reservingCapacity: 64)
        json.beginObject()
        json.key("selectedId")
        json.optionalString(selectedID)
        let member = json.bytes.dropFirst()  // `"selectedId":…` without the opening brace
        // A lead followed by a tail has no closing brace of its own.
        var combined = tail == nil ? Array(lead.dropLast()) : lead
        combined.reserveCapacity(combined.count + member.count + 2)
        combined.append(UInt8(ascii: ","))
        combined.append(contentsOf: member)
        if tail == nil { combined.append(UInt8(ascii: "}")) }
        return ListPage(body: combined, tail: tail, token: token, countsToken: countsToken, validUntil: validUntil)
    }

    /// The body in a compressed content coding, made by `compress` the first time a client asks
    /// and kept with the page: each page version is compressed once, and a warm hit is a copy.
    package func compressed(_ compress: ([UInt8], _ etag: String) -> EncodedBody) -> EncodedBody {
        compressedBody.withLock { compressed in
            if let compressed { return compressed }
            // Made under the lock: a second client asking meanwhile waits for it instead of compressing again.
            let made = ServerTimings.measure("gzip") { compress(body, etag) }  // the body joined, once per page
            compressed = made
            return made
        }
    }

    /// What keeping the page costs the shared cache in bytes: its body and, once made, its
    /// compressed body; a shared tail counts with every page there, as if each held its own.
    package var cost: Int { ownCost + (tail?.bytes.count ?? 0) }

    /// What the page's own buffers cost in bytes: its lead and, once made, its compressed
    /// body; not the tail it shares with other pages.
    var ownCost: Int { lead.count + (compressedBody.withLock { $0 }?.bytes.count ?? 0) }

    /// Whether `compression` asks for a compressed body the page does not have yet.
    func lacksCoding(_ compression: PageCompression?) -> Bool {
        guard let compression else { return false }
        return bodyCount >= compression.minimumBytes && compressedBody.withLock { $0 } == nil
    }

    /// Makes the compressed body `compression` asks for when the page lacks it; true when it
    /// made one, so whatever counts the page's cost counts it again.
    func prepare(_ compression: PageCompression?) -> Bool {
        guard let compression, lacksCoding(compression) else { return false }
        _ = compressed(compression.compress)
        return true
    }

    /// Whether the page may still be served: its list unchanged and its time not up.
    func isFresh(now: Date) -> Bool { token.isCurrent && countsToken?.isCurrent != false && now < validUntil }
}

/// Another representation of a page's body (its gzip coding) with its own strong ETag.
package final class EncodedBody: Sendable {
    package let bytes: [UInt8]
    package let etag: String

    package init(bytes: [UInt8], etag: String) {
        self.bytes = bytes
        self.etag = etag
    }
}

/// Whether something computed from the data still reflects it. Revoked once, never restored.
final class CacheValidity: Sendable {
    private let current = Atomic<Bool>(true)
    /// Distinguishes successive versions of one list in cache keys.
    let revision: UInt64

    private static let revisions = Atomic<UInt64>(0)

    init() { revision = Self.revisions.add(1, ordering: .relaxed).newValue }

    var isCurrent: Bool { current.load(ordering: .acquiring) }
    func revoke() { current.store(false, ordering: .releasing) }
}

/// Whether serving a page cost any work, for `X-Cache` and the counters.
package enum CacheOutcome: Sendable, Equatable {
    case sessionHit
    case sharedHit
    case miss

    package var isHit: Bool { self != .miss }
}
