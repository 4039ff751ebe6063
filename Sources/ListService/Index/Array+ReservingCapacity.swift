extension Array {
    /// An empty array with room for `capacity` elements: lists whose sizes are counted first
    /// are made at their size, not grown by copies that leave up to a third of them unused.
    init(reservingCapacity capacity: Int) {
        self.init()
        reserveCapacity(capacity)
    }
}
