import Foundation
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// The tickets a browser's EventSource opens a live stream with: one use each, within their
/// lifetime, and bounded in number.
@Suite struct LiveTicketsTests {
    let alice = Identity(subject: "c-0001", role: .customer)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aTicketIsRedeemedOnce_withinItsLifetime() {
        let tickets = LiveTickets()
        let (ticket, expiresAt) = tickets.issue(for: alice, now: start)
        #expect(expiresAt == start.addingTimeInterval(LiveTickets.lifetime))
        #expect(tickets.redeem(ticket, now: start.addingTimeInterval(59)) == alice)
        #expect(tickets.redeem(ticket, now: start.addingTimeInterval(59)) == nil, "one use")
        let late = tickets.issue(for: alice, now: start).ticket
        #expect(tickets.redeem(late, now: start.addingTimeInterval(LiveTickets.lifetime)) == nil, "expired")
        #expect(tickets.count == 0, "a late redemption still spends the ticket")
    }

    /// Past its capacity the oldest ticket goes, and expired ones go first: the tickets held never
    /// pass the capacity, and the newest ones still redeem.
    @Test func pastCapacity_theOldestGo_andExpiredOnesFirst() {
        let tickets = LiveTickets(capacity: 3)
        let issued = (0..<5).map { tickets.issue(for: alice, now: start.addingTimeInterval(Double($0))).ticket }
        #expect(tickets.count == 3)
        #expect(tickets.redeem(issued[0], now: start.addingTimeInterval(5)) == nil)
        #expect(tickets.redeem(issued[1], now: start.addingTimeInterval(5)) == nil)
        #expect(tickets.redeem(issued[4], now: start.addingTimeInterval(5)) == alice)
        // Two are left (issued at 2 and 3 s); once both have expired, a new ticket is the only one.
        let later = tickets.issue(for: alice, now: start.addingTimeInterval(3 + LiveTickets.lifetime)).ticket
        #expect(tickets.count == 1)
        #expect(tickets.redeem(later, now: start.addingTimeInterval(4 + LiveTickets.lifetime)) == alice)
    }

    /// 50,000 tickets issued at capacity 10,000, none expired, keep exactly the newest 10,000.
    @Test func aFullSet_keepsTheNewest() {
        let tickets = LiveTickets(capacity: 10_000)
        let issued = (0..<50_000).map { tickets.issue(for: alice, now: start.addingTimeInterval(Double($0) / 1_000)).ticket }
        #expect(tickets.count == 10_000)
        #expect(tickets.redeem(issued[39_999], now: start.addingTimeInterval(50)) == nil)
        #expect(tickets.redeem(issued[40_000], now: start.addingTimeInterval(50)) == alice)
        #expect(tickets.redeem(issued[49_999], now: start.addingTimeInterval(50)) == alice)
    }
}
