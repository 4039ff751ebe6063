import Foundation

/// What a list answer counts beside its rows (`counts`): for each filter chip of the
/// collection, how many items it would hold under the same search and access. Each collection
/// names its counts and says which an item falls in; the engine keeps the numbers current as
/// items change.
package protocol CollectionCounts: CollectionQuery {
    /// What the counts depend on beside the search and the caller's access (the client's
    /// month or day, in its zone).
    associatedtype CountScope: Hashable & Sendable

    /// The counts' names, in the order they are written.
    static var countNames: [String] { get }
    /// The count scope of a list with `scope`, for `display` at `now`, and when it goes stale.
    static func countScope(of scope: Scope, display: DisplayContext, now: Date) -> (scope: CountScope, validUntil: Date)
    /// Which counts an item with `fields` falls in, counted at `at`: bit `i` for `countNames[i]`.
    static func countBits(of fields: FilterFields, in scope: CountScope, at: Date) -> UInt32
    /// When the counts such an item falls in change by themselves after `at` (a task falls
    /// overdue); nil when they do not.
    static func countBitsExpiry(of fields: FilterFields, in scope: CountScope, at: Date) -> Date?
}

extension CollectionCounts {
    package static func countBitsExpiry(of fields: FilterFields, in scope: CountScope, at: Date) -> Date? { nil }

    /// Bit `index` set when `condition` holds.
    static func bit(_ index: Int, _ condition: Bool) -> UInt32 { condition ? 1 << UInt32(index) : 0 }
}
