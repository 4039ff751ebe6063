/// A map bounded in entries and, when entries carry a cost (their bytes), in total cost; it
/// evicts the least recently used entries first; every operation is O(1) per entry evicted.
/// Not thread-safe by itself: owners keep it behind a lock (`Locked`).
package struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        /// Nil in a free slot, so an evicted value is released at once.
        var value: Value?
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    package let capacity: Int
    /// The most the entries' costs may add up to; the newest entry stays even if it alone is more.
    package let maxCost: Int
    /// What the entries' costs add up to now.
    package private(set) var totalCost = 0
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest: Int?
    private var oldest: Int?

    package init(capacity: Int, maxCost: Int = .max) {
        self.capacity = max(1, capacity)
        self.maxCost = maxCost
    }

    package var count: Int { slots.count }

    /// Reads an entry and marks it most recently used.
    package subscript(key: Key) -> Value? {
        mutating get {
            guard let slot = slots[key] else { return nil }
            moveToNewest(slot)
            return nodes[slot].value
        }
        set {
            if let newValue { insert(key, newValue, cost: 0) } else { remove(key) }
        }
    }

    /// The entry under `key` if `isCurrent` says it still counts, changed in place by `change`
    /// and marked most recently used: one lookup where a read and an insert take two.
    package mutating func touch(_ key: Key, if isCurrent: (Value) -> Bool, _ change: (inout Value) -> Void) -> Value? {
        guard let slot = slots[key], var value = nodes[slot].value, isCurrent(value) else { return nil }
        change(&value)
        nodes[slot].value = value
        moveToNewest(slot)
        return value
    }

    /// The least recently used entry, without touching it.
    package var oldestEntry: (key: Key, value: Value)? {
        guard let oldest, let value = nodes[oldest].value else { return nil }
        return (nodes[oldest].key, value)
    }

    /// Every entry, in no order, without touching recency.
    package var entries: [(key: Key, value: Value)] {
        slots.values.compactMap { slot in nodes[slot].value.map { (nodes[slot].key, $0) } }
    }

    /// Replaces values in place (without touching recency): `transform` returns a new value,
    /// or nil to keep the old one.
    package mutating func updateValues(_ transform: (Key, Value) -> Value?) {
        for slot in slots.values {
            if let current = nodes[slot].value, let updated = transform(nodes[slot].key, current) { nodes[slot].value = updated }
        }
    }

    /// Whether inserting a new key now would evict `oldestEntry`.
    package var isFull: Bool { slots.count >= capacity }

    @discardableResult
    package mutating func remove(_ key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        unlink(slot)
        freeSlots.append(slot)
        totalCost -= nodes[slot].cost
        defer { nodes[slot].value = nil }
        return nodes[slot].value
    }

    /// Inserts or replaces an entry costing `cost` (its bytes, say) and marks it most recently
    /// used; returns the entries evicted to stay within `capacity` and `maxCost`.
    @discardableResult
    package mutating func insert(_ key: Key, _ value: Value, cost: Int) -> [(key: Key, value: Value)] {
        if let slot = slots[key] {
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            moveToNewest(slot)
        } else {
            var evicted: [(key: Key, value: Value)] = []
            if slots.count >= capacity, let victim = oldest, let value = remove(nodes[victim].key) {
                evicted.append((nodes[victim].key, value))
            }
            append(key, value, cost: cost)
            return evicted + evictOverCost()
        }
        return evictOverCost()
    }

    private mutating func evictOverCost() -> [(key: Key, value: Value)] {
        var evicted: [(key: Key, value: Value)] = []
        while totalCost > maxCost, let victim = oldest, victim != newest, let value = remove(nodes[victim].key) {
            evicted.append((nodes[victim].key, value))
        }
        return evicted
    }

    private mutating func append(_ key: Key, _ value: Value, cost: Int) {
        totalCost += cost
        let node = Node(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]
        if let newer = node.newer { nodes[newer].older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older].newer = node.newer } else { oldest = node.newer }
        nodes[slot].newer = nil
        nodes[slot].older = nil
    }
}
