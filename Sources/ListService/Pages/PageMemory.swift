import Basics

/// Something that holds a page it can let go of: a session's view-model.
protocol PageHolder: AnyObject, Sendable {
    /// Forgets the held page; the next request computes or borrows it again.
    func dropPage()
}

/// The bytes of the pages sessions hold, bounded: each view-model reports the page it keeps,
/// and past `maxBytes` the least recently served ones drop theirs. A buffer several sessions
/// hold counts once, as it takes memory once: a page borrowed from the shared cache, and a
/// grouped list's sections (`PageTail`), which every page of the list sends from one buffer.
package final class PageMemory: Sendable {
    private let maxBytes: Int
    private let state = Locked(State())

    fileprivate struct State {
        /// The holders, least recently served first, each with the page it holds.
        var holders = LRUCache<ObjectIdentifier, Holder>(capacity: .max)
        /// Every buffer held (a page's own bytes, a shared tail): its bytes and holders.
        var buffers: [ObjectIdentifier: Buffer] = [:]
        var heldBytes = 0
    }

    /// A holder and its page, kept while its page counts (an ended session's holders are
    /// released with it, see `release(_:)`). Keeping the page keeps its buffers' identities
    /// from being reused while they are counted.
    fileprivate struct Holder: Sendable {
        let holder: any PageHolder
        let page: ListPage
    }

    fileprivate struct Buffer {
        var bytes: Int
        var holders: Int
    }

    package init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// The bytes held now.
    package var heldBytes: Int { state.withLock { $0.heldBytes } }

    /// Forgets `holder` (its session has ended): it drops its page, and its bytes no longer count.
    func release(_ holder: some PageHolder) {
        let removed = state.withLock { $0.remove(ObjectIdentifier(holder)) }
        removed?.holder.dropPage()
    }

    /// Records that `holder` now keeps `page` (again, when its compressed body was added
    /// since) and makes it the most recently served; the holders evicted to stay within the
    /// bound drop their pages.
    func hold(_ page: ListPage, by holder: some PageHolder) {
        let key = ObjectIdentifier(holder)
        let evicted = state.withLock { state -> [Holder] in
            state.hold(Holder(holder: holder, page: page), as: key)
            var evicted: [Holder] = []
            while state.heldBytes > maxBytes, let oldest = state.holders.oldestEntry, oldest.key != key {
                state.remove(oldest.key)
                evicted.append(oldest.value)
            }
            return evicted
        }
        for entry in evicted { entry.holder.dropPage() }
    }
}

extension PageMemory.State {
    /// Makes `holder` the most recently served, with its page counted in place of the one it
    /// held (in place: a session that moves between lists changes its page on every request).
    mutating func hold(_ holder: PageMemory.Holder, as key: ObjectIdentifier) {
        var previous: ListPage?
        if holders.touch(key, if: { _ in true }, { held in (previous, held) = (held.page, holder) }) == nil {
            holders.insert(key, holder, cost: 0)
        }
        // The new page's buffers first: one it shares with the old page is then never uncounted to none.
        count(ObjectIdentifier(holder.page), bytes: holder.page.ownCost)
        if let tail = holder.page.tail { count(ObjectIdentifier(tail), bytes: tail.bytes.count) }
        if let previous { uncount(previous) }
    }

    @discardableResult
    mutating func remove(_ key: ObjectIdentifier) -> PageMemory.Holder? {
        guard let removed = holders.remove(key) else { return nil }
        uncount(removed.page)
        return removed
    }

    /// One holder fewer of `page`'s buffers.
    private mutating func uncount(_ page: ListPage) {
        uncount(ObjectIdentifier(page))
        if let tail = page.tail { uncount(ObjectIdentifier(tail)) }
    }

    /// One more holder of a buffer, now `bytes` long (a page's grows by its compressed body).
    private mutating func count(_ buffer: ObjectIdentifier, bytes: Int) {
        let previous = buffers[buffer]
        heldBytes += bytes - (previous?.bytes ?? 0)
        buffers[buffer] = PageMemory.Buffer(bytes: bytes, holders: (previous?.holders ?? 0) + 1)
    }

    /// One holder fewer; the last one's going stops its bytes counting.
    private mutating func uncount(_ buffer: ObjectIdentifier) {
        guard var counted = buffers[buffer] else { return }
        counted.holders -= 1
        if counted.holders == 0 {
            buffers[buffer] = nil
            heldBytes -= counted.bytes
        } else {
            buffers[buffer] = counted
        }
    }
}
