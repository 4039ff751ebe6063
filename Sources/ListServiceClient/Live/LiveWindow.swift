import Foundation

/// One window of a live list on the stream: its rows in order as the last applied event
/// left them. A list is one window until `loadMore()` takes it past the largest the service
/// keeps live (500 rows); then windows follow each other by `offset`.
@MainActor
final class LiveWindow<Row: ListRow> {
    let key: String
    let offset: Int
    private(set) var limit: Int
    private let basePath: String
    /// Whether the path takes `limit` and `offset` (a map's does not).
    private let isPaged: Bool

    private(set) var ids: [String] = []
    private(set) var rows: [String: Row] = [:]
    private(set) var total = 0
    private(set) var formattedTotal = ""
    private(set) var nextCursor: String?
    private(set) var counts: [String: Int] = [:]
    private(set) var formattedCounts: [String: String] = [:]
    private(set) var sections: [Section] = []
    /// The version of the last event applied; nil until a snapshot.
    private(set) var version: Int?
    /// Whether a snapshot has come since the window was opened.
    var hasSnapshot: Bool { version != nil }
    /// A new path was put and its snapshot has not come: deltas of the old one are ignored.
    private(set) var isAwaitingSnapshot = true
    private var snapshotWaiters: [CheckedContinuation<Void, Never>] = []

    init(key: String, basePath: String, isPaged: Bool, offset: Int, limit: Int) {
        (self.key, self.basePath, self.isPaged, self.offset, self.limit) = (key, basePath, isPaged, offset, limit)
    }

    /// The live path to put on the stream.
    var path: String {
        guard isPaged else { return basePath }
        let separator = basePath.contains("?") ? "&" : "?"
        return basePath + "\(separator)limit=\(limit)" + (offset > 0 ? "&offset=\(offset)" : "")
    }

    /// Takes `limit` rows from now on (a new snapshot follows).
    func widen(to limit: Int) {
        self.limit = limit
        expectSnapshot()
    }

    /// Ignores deltas until the next snapshot (the window was put again).
    func expectSnapshot() { isAwaitingSnapshot = true }

    /// Waits for the next snapshot (or for the window to be given up).
    func nextSnapshot() async {
        await withCheckedContinuation { snapshotWaiters.append($0) }
    }

    /// Lets every waiter go (a snapshot came, or the window failed or closed).
    func releaseWaiters() {
        let waiters = snapshotWaiters
        snapshotWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    func apply(_ snapshot: LiveSnapshot<Row>) {
        ids = snapshot.items.map(\.id)
        rows = Dictionary(snapshot.items.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        total = snapshot.total
        formattedTotal = snapshot.formattedTotal
        nextCursor = snapshot.nextCursor
        counts = snapshot.counts ?? [:]
        formattedCounts = snapshot.formattedCounts ?? [:]
        sections = snapshot.sections ?? []
        version = snapshot.v
        isAwaitingSnapshot = false
        releaseWaiters()
    }

    /// Applies `delta`; false when it does not follow the last event (a gap: the window
    /// must be snapshotted again).
    func apply(_ delta: LiveDelta<Row>) -> Bool {
        if isAwaitingSnapshot { return true }
        guard delta.base == version else { return false }
        for op in delta.ops {
            switch op {
            case .remove(let id):
                ids.removeAll { $0 == id }
                rows[id] = nil
            case .move(let id, let to):
                guard let from = ids.firstIndex(of: id) else { continue }
                ids.remove(at: from)
                ids.insert(id, at: min(max(0, to), ids.count))
            case .insert(let index, let row):
                ids.removeAll { $0 == row.id }
                ids.insert(row.id, at: min(max(0, index), ids.count))
                rows[row.id] = row
            case .update(let row):
                if rows[row.id] != nil { rows[row.id] = row }
            }
        }
        total = delta.total
        formattedTotal = delta.formattedTotal
        if let nextCursor = delta.nextCursor { self.nextCursor = nextCursor }
        counts.merge(delta.counts ?? [:]) { _, new in new }
        formattedCounts.merge(delta.formattedCounts ?? [:]) { _, new in new }
        applySections(delta)
        version = delta.v
        return true
    }

    /// Sections that changed replace theirs, new ones go after the key they name, removed ones
    /// go; every `firstIndex` is then derived from the counts before it (a delta does not
    /// resend a section whose first index only shifted).
    private func applySections(_ delta: LiveDelta<Row>) {
        guard delta.sections != nil || delta.removedSections != nil else { return }
        let removed = Set(delta.removedSections ?? [])
        sections.removeAll { removed.contains($0.key) }
        for change in delta.sections ?? [] {
            if let index = sections.firstIndex(where: { $0.key == change.section.key }) {
                sections[index] = change.section
            } else if case .some(let after) = change.after {
                let position = after.flatMap { key in sections.firstIndex { $0.key == key }.map { $0 + 1 } } ?? 0
                sections.insert(change.section, at: position)
            } else {
                sections.append(change.section)
            }
        }
        var firstIndex = 0
        for index in sections.indices {
            sections[index].firstIndex = firstIndex
            firstIndex += sections[index].count
        }
    }
}
