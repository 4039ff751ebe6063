import Foundation
import Observation

/// An observable model of one live list: `rows` in the list's order, one `LiveRow` object
/// per item, kept current by the service's events. An event that only changes a row's
/// content sets that `LiveRow`'s `row` and leaves `rows` alone; one that inserts, removes
/// or moves rows sets `rows` and leaves every other `LiveRow` alone. Observe it from SwiftUI
/// (`ForEach(list.rows) { RowView(row: $0) }`) or through `onChange`.
@MainActor @Observable
public final class LiveList<Row: ListRow> {
    public private(set) var rows: [LiveRow<Row>] = []
    /// Items in the whole list, and the number as the list's locale writes it ("1,370").
    public private(set) var total = 0
    public private(set) var formattedTotal = ""
    /// The filter chips' counts under the same search, and their formatted numbers.
    public private(set) var counts: [String: Int] = [:]
    public private(set) var formattedCounts: [String: String] = [:]
    /// Every section of the whole list, when it is grouped.
    public private(set) var sections: [Section] = []
    public private(set) var state: LiveState = .connecting
    /// The session's selected item where the list's collection shares one (the earthquakes'
    /// list and map; nil otherwise): as the snapshot said, then as each selection made in any
    /// of the session's clients or tabs (`quakes.select`) says. Setting it changes no row.
    public private(set) var selectedId: String?

    /// Called after each applied event with what it changed.
    @ObservationIgnored public var onChange: ((LiveChange<Row>) -> Void)?

    /// Whether rows of the list are not in `rows` yet.
    public var canLoadMore: Bool { isPaged && rows.count < total }

    /// The most rows the service keeps in one live window.
    static var largestWindow: Int { 500 }

    @ObservationIgnored private let stream: LiveStream
    @ObservationIgnored private let basePath: String
    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private let isPaged: Bool
    @ObservationIgnored private var windows: [WindowMember] = []
    @ObservationIgnored private var objects: [String: LiveRow<Row>] = [:]
    @ObservationIgnored private var isClosed = false

    init<Query: ListQuery>(_ query: Query, stream: LiveStream) where Query.Row == Row {
        self.stream = stream
        self.basePath = query.path + "/live" + query.queryString()
        self.pageSize = min(Self.largestWindow, max(1, query.limit ?? 50))
        self.isPaged = Query.isPaged
        addWindow(offset: 0, limit: pageSize)
    }

    /// Widens the list by a page, read live, and returns once its rows are in `rows`.
    public func loadMore() async {
        guard !isClosed, isPaged, let last = windows.last else { return }
        if last.window.limit < Self.largestWindow {
            last.window.widen(to: min(Self.largestWindow, last.window.limit + pageSize))
            stream.watch(last)
            await last.window.nextSnapshot()
        } else {
            let window = addWindow(offset: last.window.offset + last.window.limit, limit: pageSize)
            await window.window.nextSnapshot()
        }
    }

    /// Stops following the list (it also stops when the list is released).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for member in windows {
            stream.unwatch(member.key)
            member.window.releaseWaiters()
        }
    }

    deinit {
        // Released without `close()`: its windows leave the stream on the main actor.
        guard !isClosed else { return }
        let (stream, keys) = (stream, windows.map { $0.key })
        Task { @MainActor in
            for key in keys { stream.unwatch(key) }
        }
    }

    @discardableResult
    private func addWindow(offset: Int, limit: Int) -> WindowMember {
        let member = WindowMember(
            LiveWindow(key: stream.makeKey(), basePath: basePath, isPaged: isPaged, offset: offset, limit: limit), list: self)
        windows.append(member)
        stream.watch(member)
        return member
    }

    /// A window's event: applied, then the list rebuilt from its windows.
    fileprivate func receive(_ event: ServerSentEvent, in member: WindowMember) {
        let data = Data(event.data.utf8)
        let kind: LiveChange<Row>.Kind
        do {
            switch event.name {
            case "delta":
                guard member.window.apply(try JSONDecoder().decode(LiveDelta<Row>.self, from: data)) else {
                    member.window.expectSnapshot()
                    stream.watch(member)  // a gap: put again for a new snapshot
                    return
                }
                kind = .delta
            case "snapshot", "reset":
                let snapshot = try JSONDecoder().decode(LiveSnapshot<Row>.self, from: data)
                member.window.apply(snapshot)
                select(snapshot.selectedId)
                kind = event.name == "reset" ? .reset : .snapshot
            case "selection":
                select(try JSONDecoder().decode(LiveSelection.self, from: data).selectedId)
                return
            default:
                return
            }
        } catch {
            // Rows this client cannot read (a server newer than its types): said, not retried.
            streamChanged(to: .failed(.undecodable(error, path: member.path)), in: member)
            return
        }
        rebuild(kind)
        updateState()
    }

    private func select(_ id: String?) {
        if selectedId != id { selectedId = id }
    }

    fileprivate func streamChanged(to newState: LiveState, in member: WindowMember) {
        if case .failed = newState { member.window.releaseWaiters() }
        if newState == .live, !member.window.hasSnapshot { return }
        if case .failed = state { return }
        if newState == .live { updateState() } else if state != newState { state = newState }
    }

    /// Live once every window has had its first snapshot (a window widened by `loadMore()`
    /// stays live while its wider snapshot comes).
    private func updateState() {
        let next: LiveState = windows.allSatisfy { $0.window.hasSnapshot } ? .live : (state == .reconnecting ? .reconnecting : .connecting)
        if case .failed = state { return }
        if state != next { state = next }
    }

    /// The list as its windows now hold it (a row two windows both hold, for a moment while
    /// it crosses between them, once), each `LiveRow` touched only when its content changed.
    private func rebuild(_ kind: LiveChange<Row>.Kind) {
        var order: [String] = []
        var seen: Set<String> = []
        var content: [String: Row] = [:]
        for member in windows {
            for id in member.window.ids where seen.insert(id).inserted {
                guard let row = member.window.rows[id] else { continue }
                order.append(id)
                content[id] = row
            }
        }
        let first = windows[0].window
        var change = LiveChange<Row>(kind: kind, total: first.total, formattedTotal: first.formattedTotal)
        var kept: [String: LiveRow<Row>] = [:]
        var nextRows: [LiveRow<Row>] = []
        nextRows.reserveCapacity(order.count)
        for (index, id) in order.enumerated() {
            guard let row = content[id] else { continue }
            if let object = objects[id] {
                if object.row != row {
                    object.row = row
                    change.updated.append(row)
                }
                kept[id] = object
                nextRows.append(object)
            } else {
                let object = LiveRow(row)
                kept[id] = object
                nextRows.append(object)
                change.inserted.append((index, row))
            }
        }
        change.removed = objects.keys.filter { kept[$0] == nil }.sorted()
        let shown = rows.map(\.id)
        change.moved = Self.moved(from: shown.filter { kept[$0] != nil }, to: order.filter { objects[$0] != nil }, positions: order)
        objects = kept
        if shown != order { rows = nextRows }
        if total != first.total { total = first.total }
        if formattedTotal != first.formattedTotal { formattedTotal = first.formattedTotal }
        change.counts = first.counts.filter { counts[$0.key] != $0.value }
        if counts != first.counts { counts = first.counts }
        if formattedCounts != first.formattedCounts { formattedCounts = first.formattedCounts }
        if sections != first.sections { sections = first.sections }
        if kind != .delta || !change.isEmpty || !change.counts.isEmpty { onChange?(change) }
    }

    /// The ids of `after` (the kept ids in their new order) that are not in the longest run
    /// keeping their order from `before`: the fewest that moved. Each with its index in `positions`.
    private static func moved(from before: [String], to after: [String], positions: [String]) -> [(id: String, index: Int)] {
        let rank = Dictionary(before.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ranks = after.compactMap { rank[$0] }
        guard ranks.count == after.count else { return [] }
        // Longest increasing subsequence, patience sorting with back links.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: ranks.count)
        for (index, value) in ranks.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if ranks[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var stays = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            stays.insert(cursor)
            cursor = previous[cursor]
        }
        let position = Dictionary(positions.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return after.indices.filter { !stays.contains($0) }.map { (after[$0], position[after[$0]] ?? $0) }
    }

    /// One window as a member of the stream, pointing back at its list.
    fileprivate final class WindowMember: LiveStreamMember {
        let window: LiveWindow<Row>
        nonisolated let key: String
        weak var list: LiveList<Row>?

        init(_ window: LiveWindow<Row>, list: LiveList<Row>) {
            self.window = window
            self.key = window.key
            self.list = list
        }

        var path: String { window.path }
        func receive(_ event: ServerSentEvent) { list?.receive(event, in: self) }
        func streamChanged(to state: LiveState) { list?.streamChanged(to: state, in: self) }
    }
}
