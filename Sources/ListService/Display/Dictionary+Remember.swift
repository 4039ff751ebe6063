extension Dictionary {
    /// Remembers `value` under `key`, forgetting everything first when `bound` entries are
    /// already remembered: for formatted texts, whose working set sits far below the bound, so
    /// starting over is rare and cheaper than keeping recency.
    mutating func remember(_ value: Value, for key: Key, upTo bound: Int) {
        if count >= bound { removeAll(keepingCapacity: true) }
        self[key] = value
    }
}
