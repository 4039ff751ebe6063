/// A fixed-capacity map that evicts the least recently used entry; every operation is O(1).
/// Not thread-safe by itself: owners keep it behind a lock (`Locked`).
public struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    public let capacity: Int
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest: Int?
    private var oldest: Int?

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public var count: Int { slots.count }

    /// Reads an entry and marks it most recently used.
    public subscript(key: Key) -> Value? {
        mutating get {
            guard let slot = slots[key] else { return nil }
            moveToNewest(slot)
            return nodes[slot].value
        }
        set {
            if let newValue { insert(key, newValue) } else { remove(key) }
        }
    }

    /// The least recently used entry, without touching it.
    public var oldestEntry: (key: Key, value: Value)? {
        oldest.map { (nodes[$0].key, nodes[$0].value) }
    }

    /// Replaces values in place (without touching recency): `transform` returns a new value,
    /// or nil to keep the old one.
    public mutating func updateValues(_ transform: (Key, Value) -> Value?) {
        for slot in slots.values {
            if let updated = transform(nodes[slot].key, nodes[slot].value) { nodes[slot].value = updated }
        }
    }

    /// Whether inserting a new key now would evict `oldestEntry`.
    public var isFull: Bool { slots.count >= capacity }

    @discardableResult
    public mutating func remove(_ key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        unlink(slot)
        freeSlots.append(slot)
        return nodes[slot].value
    }

    private mutating func insert(_ key: Key, _ value: Value) {
        if let slot = slots[key] {
            nodes[slot].value = value
            moveToNewest(slot)
            return
        }
        if slots.count >= capacity, let victim = oldest { remove(nodes[victim].key) }
        let node = Node(key: key, value: value, newer: nil, older: newest)
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
