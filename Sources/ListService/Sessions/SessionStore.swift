import Foundation
import Basics

/// One client's state: a view-model per collection (made on first use) and what it selected.
package final class Session: Sendable {
    package let id: String
    private let viewModels = Locked<[ViewModelKey: any PageHolder]>([:])
    private let selections = Locked<[String: String]>([:])
    private let pageMemory: PageMemory

    init(id: String, pageMemory: PageMemory) {
        self.id = id
        self.pageMemory = pageMemory
    }

    /// The session's view-model for collection `C`'s list (or map).
    package func viewModel<C: ListCollection>(
        for collection: C.Type, purpose: ListCriteria<C>.Purpose = .list
    ) -> ListViewModel<C> {
        let key = ViewModelKey(collection: ObjectIdentifier(C.self), isMap: purpose == .map)
        return viewModels.withLock { models in
            // The model stored under `C`'s key is the `ListViewModel<C>` made below.
            if let existing = models[key] as? ListViewModel<C> { return existing }
            let made = ListViewModel<C>(purpose: purpose, memory: pageMemory)
            models[key] = made
            return made
        }
    }

    /// A view-model's key: its collection's type and whether it serves the map.
    private struct ViewModelKey: Hashable {
        let collection: ObjectIdentifier
        let isMap: Bool
    }

    /// The session has ended (expired or evicted): its view-models let their pages go at once.
    func end() {
        for model in viewModels.withLock({ Array($0.values) }) { pageMemory.release(model) }
    }

    /// The item selected in a collection, shared by that collection's list and map.
    package func selection(in collection: String) -> String? { selections.withLock { $0[collection] } }

    /// Sets the selection alone; `CollectionService.select` also tells the session's live lists.
    func select(_ id: String?, in collection: String) { selections.withLock { $0[collection] = id } }
}

/// Live sessions, capped in number (least recently used evicted) and expired after an idle
/// time-to-live; the pages they hold are capped in bytes (`PageMemory`), so memory stays
/// bounded whatever the number of clients and whatever they ask for.
package final class SessionStore: Sendable {
    private let entries: Locked<LRUCache<String, Entry>>
    private let timeToLive: TimeInterval
    /// The bytes of the pages sessions hold.
    package let pageMemory: PageMemory
    /// Ends expired sessions while no client comes (see `endExpired(now:)`).
    private let sweeper: Locked<any DispatchSourceTimer>

    private struct Entry {
        let session: Session
        var lastUsed: Date
    }

    /// `maxPageBytes` bounds the pages all sessions hold together; past it the least recently
    /// used sessions drop theirs (their next request is served from the shared cache or recomputed).
    package init(capacity: Int = 10_000, timeToLive: Duration = .seconds(1800), maxPageBytes: Int = 128 * 1024 * 1024) {
        let entries = Locked(LRUCache<String, Entry>(capacity: capacity))
        self.entries = entries
        pageMemory = PageMemory(maxBytes: maxPageBytes)
        let (seconds, attoseconds) = timeToLive.components
        let ttl = Double(seconds) + Double(attoseconds) / 1e18
        self.timeToLive = ttl
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = min(60, max(1, ttl / 2))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 100)))
        timer.setEventHandler {
            // The freed pages go back to the system, so memory comes down after a crowd leaves.
            if Self.endExpired(in: entries, now: Date(), timeToLive: ttl) > 0 { FreedMemory.returnToSystem() }
        }
        timer.resume()
        sweeper = Locked(timer)
    }

    deinit { sweeper.withLock { $0.cancel() } }

    package var count: Int { entries.withLock { $0.count } }

    /// The session named `id`. An unknown or expired id gets a new session: under that id
    /// when `adoptsUnknownID` (a client-chosen header), else under a fresh random id (a stale
    /// cookie). `isNew` tells the caller to hand the id to the client.
    package func session(id: String?, adoptsUnknownID: Bool, now: Date) -> (session: Session, isNew: Bool) {
        let (found, ended) = entries.withLock { entries -> ((Session, Bool), [Session]) in
            if let id,
                let entry = entries.touch(id, if: { now.timeIntervalSince($0.lastUsed) < timeToLive }, { $0.lastUsed = now })
            {
                return ((entry.session, false), [])
            }
            var ended = Self.removeExpired(from: &entries, now: now, timeToLive: timeToLive)
            let session = Session(id: adoptsUnknownID ? id ?? Self.makeID() : Self.makeID(), pageMemory: pageMemory)
            // A session replaced under its id (expired) or evicted for room ends too.
            if let replaced = entries.remove(session.id) { ended.append(replaced.session) }
            ended += entries.insert(session.id, Entry(session: session, lastUsed: now), cost: 0).map(\.value.session)
            return ((session, true), ended)
        }
        for session in ended { session.end() }
        return found
    }

    /// Ends the sessions idle past their time-to-live, so the pages they held are let go now,
    /// not when new clients come (a timer runs it every half time-to-live, at most a minute
    /// apart); returns how many ended.
    @discardableResult
    package func endExpired(now: Date) -> Int { Self.endExpired(in: entries, now: now, timeToLive: timeToLive) }

    private static func endExpired(in entries: Locked<LRUCache<String, Entry>>, now: Date, timeToLive: TimeInterval) -> Int {
        let ended = entries.withLock { removeExpired(from: &$0, now: now, timeToLive: timeToLive) }
        for session in ended { session.end() }
        return ended.count
    }

    /// The least recently used sessions sit at the old end: removes those past their TTL.
    private static func removeExpired(from entries: inout LRUCache<String, Entry>, now: Date, timeToLive: TimeInterval) -> [Session] {
        var ended: [Session] = []
        while let oldest = entries.oldestEntry, now.timeIntervalSince(oldest.value.lastUsed) >= timeToLive {
            entries.remove(oldest.key)
            ended.append(oldest.value.session)
        }
        return ended
    }

    /// Whether `id` may name a session: 1–128 characters of A–Z, a–z, 0–9, `-` and `_`.
    package static func isValidID(_ id: String) -> Bool {
        // Read as contiguous bytes: a walk along `String.UTF8View` costs tens of instructions a byte.
        (1...128).contains(id.utf8.count)
            && withUTF8Bytes(of: id) { bytes in
                bytes.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95 }
            }
    }

    /// Whether `id` has the form of an id this store gives out (32 lowercase hex digits): a
    /// cookie the service set, which names a session from the client's second request on.
    package static func isIssuedID(_ id: String) -> Bool {
        id.utf8.count == 32 && withUTF8Bytes(of: id) { bytes in bytes.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) } }
    }

    /// 128 random bits from the system's CSPRNG, as 32 hex digits.
    package static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(zeroPadded: generator.next() as UInt64, width: 16, radix: 16) }.joined()
    }
}
