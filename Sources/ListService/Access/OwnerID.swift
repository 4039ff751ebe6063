import Basics

/// The account an item belongs to (`c-0042`: an order's `customerId`, a task's `ownerId`),
/// interned: four bytes in an item, compared as a number, each distinct account's text kept
/// once for the life of the process. Accounts come from the data and from verified tokens
/// only, so the table grows with real accounts, not with what clients send.
package struct OwnerID: Hashable, Sendable {
    private let index: UInt32

    /// No owner: an item only staff see.
    package static let none = OwnerID(index: 0)

    /// The account `text` (empty: `none`).
    package init(_ text: String) {
        guard !text.isEmpty else {
            self = .none
            return
        }
        index = Self.table.withLock { table in
            if let index = table.indexes[text] { return index }
            table.texts.append(text)
            let index = UInt32(table.texts.count - 1)
            table.indexes[text] = index
            return index
        }
    }

    private init(index: UInt32) { self.index = index }

    /// The account's text; nil for `none`.
    package var text: String? {
        guard index != 0 else { return nil }
        return Self.table.withLock { $0.texts[Int(index)] }
    }

    private struct Table {
        var indexes: [String: UInt32] = [:]
        /// By index; index 0 is `none`'s.
        var texts: [String] = [""]
    }

    private static let table = Locked(Table())
}
