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

    /// A held page's holder, kept while its page counts (an ended session's holders are
    /// released with it, see `release(_:)`).
    private struct Holder: Sendable {
        let holder: any PageHolder
    }

    package init(maxBytes: Int) { holders = Locked(LRUCache(capacity: .max, maxCost: maxBytes)) }

    /// The bytes held now.
    package var heldBytes: Int { holders.withLock { $0.totalCost } }

    /// Forgets `holder` (its session has ended): it drops its page, and its bytes no longer count.
    func release(_ holder: some PageHolder) {
        let removed = holders.withLock { $0.remove(ObjectIdentifier(holder)) }
        removed?.holder.dropPage()
    }

    /// Records that `holder` now keeps a page of `bytes` and makes it the most recently used;
    /// the holders evicted to stay within the bound drop their pages.
    func hold(_ bytes: Int, by holder: some PageHolder) {
        let evicted = holders.withLock { $0.insert(ObjectIdentifier(holder), Holder(holder: holder), cost: bytes) }
        for entry in evicted { entry.value.holder.dropPage() }
    }
}
