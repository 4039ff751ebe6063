import Basics
import Foundation
import ListService

/// One-use, short-lived tickets that stand for a signed-in caller on a live stream's address:
/// a browser's EventSource cannot send `Authorization`, and a token must never be put in a
/// URL. `POST /live/tickets` (with the token) issues one; `GET /…/live?ticket=…` redeems it
/// once, within `lifetime`. Bounded: expired tickets go first, and past `capacity` the oldest.
package final class LiveTickets: Sendable {
    private let tickets = Locked<[String: (identity: Identity, expiresAt: Date)]>([:])
    private let capacity: Int
    /// How long a ticket may wait to be redeemed.
    package static let lifetime: TimeInterval = 60

    package init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// A new ticket for `identity`, valid from `now` for `lifetime`.
    func issue(for identity: Identity, now: Date) -> (ticket: String, expiresAt: Date) {
        let ticket = SessionStore.makeID()
        let expiresAt = now.addingTimeInterval(Self.lifetime)
        tickets.withLock { tickets in
            if tickets.count >= capacity { tickets = tickets.filter { now < $0.value.expiresAt } }
            if tickets.count >= capacity, let oldest = tickets.min(by: { $0.value.expiresAt < $1.value.expiresAt })?.key {
                tickets[oldest] = nil
            }
            tickets[ticket] = (identity, expiresAt)
        }
        return (ticket, expiresAt)
    }

    /// The identity `ticket` stands for, once: it is gone after this, whatever the answer.
    func redeem(_ ticket: String, now: Date) -> Identity? {
        guard let entry = tickets.withLock({ $0.removeValue(forKey: ticket) }), now < entry.expiresAt else { return nil }
        return entry.identity
    }
}
