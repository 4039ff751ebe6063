/// What one applied event changed, for a client that reacts to changes rather than
/// observing (a terminal, a log, a test).
public struct LiveChange<Row: ListRow>: Sendable {
    public enum Kind: String, Sendable {
        case snapshot, reset, delta
    }

    public var kind: Kind
    /// Rows new to the list, with their index in it.
    public var inserted: [(index: Int, row: Row)] = []
    /// Rows whose content changed.
    public var updated: [Row] = []
    /// Ids that left the list.
    public var removed: [String] = []
    /// Ids that stayed but changed place, with their new index.
    public var moved: [(id: String, index: Int)] = []
    public var total: Int
    /// The total as the server wrote it for the list's locale ("1,234").
    public var formattedTotal: String
    /// The counts that changed.
    public var counts: [String: Int] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && removed.isEmpty && moved.isEmpty }
}
