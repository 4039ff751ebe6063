import Foundation
import ListServiceClient
import Observation

/// Follows one live list and shows it: redrawn in place on a terminal (the rows the last
/// change touched marked), or one JSON line per applied change.
@MainActor
final class Watcher<Row: ListRow & RowColumns> {
    private let list: LiveList<Row>
    private let title: String
    private let isJSON: Bool
    private let limit: Int
    private var marked: Set<String> = []

    init(list: LiveList<Row>, title: String, isJSON: Bool, limit: Int) {
        (self.list, self.title, self.isJSON, self.limit) = (list, title, isJSON, limit)
    }

    /// Shows the list until it fails (then the problem, on stderr, and exit status 1).
    func run() async -> Int32 {
        list.onChange = { [unowned self] change in self.changed(change) }
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = list.state
                } onChange: {
                    continuation.resume()
                }
            }
            await Task.yield()
            if case .failed(let problem) = list.state {
                FileHandle.standardError.write(Data("listservice-watch: \(problem.detail) (\(problem.status) \(problem.code))\n".utf8))
                return 1
            }
            if !isJSON { draw() } else { FileHandle.standardError.write(Data("listservice-watch: \(list.state)\n".utf8)) }
        }
    }

    private func changed(_ change: LiveChange<Row>) {
        if isJSON {
            printLine(ChangeLine(change, rows: list.rows.map(\.row)))
            return
        }
        marked = Set(change.inserted.map(\.row.id) + change.updated.map(\.id) + change.moved.map(\.id))
        if change.kind != .delta { marked = [] }
        draw()
    }

    private func printLine(_ line: ChangeLine<Row>) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    private func draw() {
        var screen = "\u{1B}[H\u{1B}[2J"
        let state: String
        switch list.state {
        case .connecting: state = "connecting…"
        case .live: state = "live"
        case .reconnecting: state = "reconnecting…"
        case .failed(let problem): state = "failed: \(problem.detail)"
        }
        screen += "\u{1B}[1m\(title)\u{1B}[0m · \(list.formattedTotal) items · \(state)\n\n"
        let rows = list.rows.prefix(limit).map(\.row)
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, column) in row.columns.enumerated() {
                if index == widths.count { widths.append(0) }
                widths[index] = max(widths[index], column.count)
            }
        }
        for row in rows {
            let line = row.columns.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
                separator: "  ")
            screen += marked.contains(row.id) ? "\u{1B}[1;33m● \(line)\u{1B}[0m\n" : "  \(line)\n"
        }
        if list.rows.count > limit { screen += "  … \(list.total - limit) more\n" }
        FileHandle.standardOutput.write(Data(screen.utf8))
    }
}

/// One applied change as a JSON line: a snapshot or reset names every row, a delta what it
/// changed.
struct ChangeLine<Row: ListRow>: Encodable {
    struct Inserted: Encodable {
        var index: Int
        var row: Row
    }

    struct Moved: Encodable {
        var id: String
        var index: Int
    }

    var event: String
    var total: Int
    var formattedTotal: String
    var rows: [Row]?
    var inserted: [Inserted]?
    var updated: [Row]?
    var removed: [String]?
    var moved: [Moved]?
    var counts: [String: Int]?

    init(_ change: LiveChange<Row>, rows: [Row]) {
        event = change.kind.rawValue
        total = change.total
        formattedTotal = change.formattedTotal
        counts = change.counts.isEmpty ? nil : change.counts
        if change.kind == .delta {
            inserted = change.inserted.isEmpty ? nil : change.inserted.map { Inserted(index: $0.index, row: $0.row) }
            updated = change.updated.isEmpty ? nil : change.updated
            removed = change.removed.isEmpty ? nil : change.removed
            moved = change.moved.isEmpty ? nil : change.moved.map { Moved(id: $0.id, index: $0.index) }
        } else {
            self.rows = rows
        }
    }
}
