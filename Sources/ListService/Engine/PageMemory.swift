import Basics

/// Something that holds a page it can let go of: a session's view-model.
protocol PageHolder: AnyObject, Sendable {
    /// Forgets the held page; the next request computes or borrows it again.
    func dropPage()
}

/// The bytes of the pages sessions hold, bounded: each view-model reports the page it keeps,
/// and past `maxBytes` the least recently served ones drop theirs. A page shared by several
/// sessions counts once per session, so the bound is conservative.
package final class PageMemory: Sendable {
    private let holders: Locked<LRUCache<ObjectIdentifier, Holder>>

    /// A held page's holder, kept (strongly: a holder of an expired session stays until its
    /// page is evicted, which the bound in bytes allows for) while its page counts.
    private struct Holder: Sendable {
        let holder: any PageHolder
    }

    package init(maxBytes: Int) { holders = Locked(LRUCache(capacity: .max, maxCost: maxBytes)) }

    /// The bytes held now.
    package var heldBytes: Int { holders.withLock { $0.totalCost } }

    /// Records that `holder` now keeps a page of `bytes` and makes it the most recently used;
    /// the holders evicted to stay within the bound drop their pages.
    func hold(_ bytes: Int, by holder: some PageHolder) {
        let evicted = holders.withLock { $0.insert(ObjectIdentifier(holder), Holder(holder: holder), cost: bytes) }
        for entry in evicted { entry.value.holder.dropPage() }
    }
}
