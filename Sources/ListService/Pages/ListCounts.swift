import Basics
import Foundation

/// How many items each of a collection's counts holds under one search, access and count
/// scope, as of a state version. Immutable: a change that alters a number replaces it with a
/// new one and revokes its token, so every page showing it goes stale.
final class ListCounts: Sendable {
    /// One number per `CollectionCounts.countNames`, in order.
    let values: [Int]
    let version: UInt64
    /// The instant the items' counts were decided at (a task is overdue if due before it).
    let takenAt: Date
    /// When the numbers go stale by themselves (a new month, a task falling due).
    let validUntil: Date
    let token: CacheValidity
    /// The values formatted per locale, made on first need (many lists of one locale show them).
    private let formatted = Locked<[String: [String]]>([:])

    init(values: [Int], version: UInt64, takenAt: Date, validUntil: Date, token: CacheValidity = CacheValidity()) {
        self.values = values
        self.version = version
        self.takenAt = takenAt
        self.validUntil = validUntil
        self.token = token
    }

    func isFresh(now: Date) -> Bool { token.isCurrent && now < validUntil }

    /// The values formatted for `localeTag`: remembered, else made by `format`.
    func formatted(for localeTag: String, _ format: ([Int]) -> [String]) -> [String] {
        if let known = formatted.withLock({ $0[localeTag] }) { return known }
        let made = format(values)
        formatted.withLock { $0[localeTag] = made }
        return made
    }
}
