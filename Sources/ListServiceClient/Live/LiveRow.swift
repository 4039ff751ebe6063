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
