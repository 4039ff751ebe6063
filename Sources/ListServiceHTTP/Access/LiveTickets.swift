import Basics
import Foundation
import ListService

/// One-use, short-lived tickets that stand for a signed-in caller on a live stream's address:
/// a browser's EventSource cannot send `Authorization`, and a token must never be put in a
/// URL. `POST /live/tickets` (with the token) issues one; `GET /…/live?ticket=…` redeems it
/// once, within `lifetime`. Bounded: expired tickets go first, and past `capacity` the oldest;
/// each costs O(1), since every ticket lives as long and so the oldest is always the first to
/// expire (the cache is never read, only emptied, so it stays in the order tickets were issued).
package final class LiveTickets: Sendable {
    private let tickets: Locked<LRUCache<String, Ticket>>
    /// How long a ticket may wait to be redeemed.
    package static let lifetime: TimeInterval = 60

    private struct Ticket {
        let identity: Identity
        let expiresAt: Date
    }

    package init(capacity: Int = 10_000) { tickets = Locked(LRUCache(capacity: capacity)) }

    /// A new ticket for `identity`, valid from `now` for `lifetime`.
    func issue(for identity: Identity, now: Date) -> (ticket: String, expiresAt: Date) {
        let ticket = SessionStore.makeID()
        let expiresAt = now.addingTimeInterval(Self.lifetime)
        tickets.withLock { tickets in
            while let oldest = tickets.oldestEntry, oldest.value.expiresAt <= now { tickets.remove(oldest.key) }
            tickets.insert(ticket, Ticket(identity: identity, expiresAt: expiresAt), cost: 0)
        }
        return (ticket, expiresAt)
    }

    /// The identity `ticket` stands for, once: it is gone after this, whatever the answer.
    func redeem(_ ticket: String, now: Date) -> Identity? {
        guard let entry = tickets.withLock({ $0.remove(ticket) }), now < entry.expiresAt else { return nil }
        return entry.identity
    }

    /// Tickets held now: issued, and not yet redeemed, dropped as expired or pushed out.
    var count: Int { tickets.withLock { $0.count } }
}
