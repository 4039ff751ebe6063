import Observation

/// One row of a live list, one object per id for as long as the id stays in the list: a
/// change to the item sets this object's `row` and nothing else, so a SwiftUI `ForEach`
/// over `LiveList.rows` re-evaluates only that row's cell.
@MainActor @Observable
public final class LiveRow<Row: ListRow>: Identifiable {
    public nonisolated let id: String
    public internal(set) var row: Row

    init(_ row: Row) {
        self.id = row.id
        self.row = row
    }
}

/// Where a live list stands.
public enum LiveState: Sendable, Equatable {
    /// Opening its stream, or waiting for its first snapshot.
    case connecting
    /// Every window has its snapshot and follows the changes.
    case live
    /// The stream dropped; it is being opened again (the rows shown are the last known).
    case reconnecting
    /// Refused for good (a bad parameter, no access); the problem says why.
    case failed(ListServiceError)
}

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
    /// The counts that changed.
    public var counts: [String: Int] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && removed.isEmpty && moved.isEmpty }
}

/// How long a dropped stream waits before it is opened again: the stream's own `retry:`
/// (else `initialDelay`), doubled per failure up to `maximumDelay`, each wait spread by
/// ±50% so that clients a restart dropped together do not come back together. A 503's
/// `Retry-After` is waited out first.
public struct ReconnectPolicy: Sendable {
    public var initialDelay: Double
    public var maximumDelay: Double

    public init(initialDelay: Double = 1, maximumDelay: Double = 30) {
        (self.initialDelay, self.maximumDelay) = (initialDelay, maximumDelay)
    }

    /// The wait before attempt `failures + 1`, in seconds.
    func delay(failures: Int, serverRetry: Double?, retryAfter: Double?) -> Double {
        let base = min(maximumDelay, (serverRetry ?? initialDelay) * Double(1 << min(failures, 10)))
        return (retryAfter ?? 0) + base * Double.random(in: 0.5...1.5)
    }
}
