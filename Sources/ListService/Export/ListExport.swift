import Basics
import Dispatch
import Foundation

/// An export under way: the whole list as it was when the request came, handed out a chunk
/// at a time so the file is never whole in memory. Its caller asks for the next chunk only
/// once the client has taken the last ones.
package final class ListExport: Sendable {
    /// The file's media type.
    package let contentType: String
    /// The file's name: the collection and the client's date (`orders-2026-11-25.csv`).
    package let filename: String
    private let produce: @Sendable () -> Step

    /// The next part of the file.
    package enum Step: Sendable {
        case bytes([UInt8])
        /// The file is complete.
        case end
        /// The list changed more while the export ran than a snapshot keeps: the file cannot
        /// be finished and must be abandoned (never ended as if it were whole).
        case overrun
    }

    init(contentType: String, filename: String, produce: @escaping @Sendable () -> Step) {
        self.contentType = contentType
        self.filename = filename
        self.produce = produce
    }

    /// The next chunk; call one at a time.
    package func next() -> Step { produce() }
}

extension CollectionEngine {
    /// The export of the list `criteria` names, in `format`: its rows as they are now, formatted
    /// for the criteria's display as they are read.
    package func export(_ criteria: ListCriteria<C>, format: ExportFormat) -> ListExport {
        let (result, _) = sortedResult(for: criteria)
        let snapshot = state.openSnapshot(of: result.slots, version: result.version, list: criteria.definition)
        let now = self.now
        let writer = ExportWriter(
            snapshot: snapshot, engine: self, format: format, display: criteria.display, access: criteria.access, now: now)
        // The client's calendar day, as the UTC day of the same number.
        let localDay = criteria.display.timeZone.localDay(of: now)
        let date = ISO8601.format(Date(timeIntervalSince1970: Double(localDay) * 86_400)).prefix(10)
        return ListExport(contentType: format.contentType, filename: "\(C.name)-\(date).\(format.fileExtension)", produce: writer.next)
    }
}

/// Writes an export's file from its snapshot, `rowsPerChunk` rows per lane at a time: CSV cells are
/// the members of the very rows a list serves (or of the raw rows), so a file and the list's
/// pages say the same.
final class ExportWriter<C: ListCollection>: Sendable {
    private let snapshot: ListSnapshot<C>
    private let engine: CollectionEngine<C>
    private let format: ExportFormat
    private let display: DisplayContext
    private let access: AccessScope
    private let now: Date
    /// The next row to write; nil before the file's start (a byte order mark, the header).
    private let position = Locked<Int?>(nil)
    /// The row members a CSV file's columns hold, in order, as UTF-8.
    private let columnNames: [[UInt8]]
    /// A spreadsheet opens CSV with `;` between cells and a UTF-8 byte order mark in a locale
    /// that writes decimal commas (de, fr, es); with `,` otherwise. Raw files are for machines: `,`.
    private let separator: UInt8
    /// A formatter set per lane (the export's own: formatting a file never waits for, nor
    /// holds up, the pages formatted for the same display meanwhile).
    private let lanes: [DisplayFormatters]

    static var rowsPerChunk: Int { 256 }

    init(
        snapshot: ListSnapshot<C>, engine: CollectionEngine<C>, format: ExportFormat, display: DisplayContext, access: AccessScope,
        now: Date
    ) {
        self.snapshot = snapshot
        self.engine = engine
        self.format = format
        self.display = display
        self.access = access
        self.now = now
        let raw = format == .csv(raw: true)
        columnNames = (raw ? C.rawExportFields : C.exportColumns.map(\.field)).map { Array($0.utf8) }
        lanes = (0..<Self.laneCount).map { _ in DisplayFormatters(context: display) }
        let decimalComma = Locale(identifier: display.localeTag).decimalSeparator == ","
        separator = format == .csv(raw: false) && decimalComma ? UInt8(ascii: ";") : UInt8(ascii: ",")
    }

    /// Stretches of a chunk formatted at once: one per core, up to four.
    private static var laneCount: Int { max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) }

    func next() -> ListExport.Step {
        position.withLock { position in
            let start = position ?? 0
            var head = CSVWriter(separator: separator, guardsFormulas: false, reservingCapacity: 1024)
            if position == nil { writeHead(to: &head) }
            guard start < snapshot.count else {
                defer { position = start }
                return position == nil && !head.bytes.isEmpty ? .bytes(head.take()) : .end
            }
            let end = min(start + Self.rowsPerChunk * lanes.count, snapshot.count)
            guard let items = snapshot.items(in: start..<end) else { return .overrun }
            position = end
            engine.metrics.increment(.rowsFormatted, by: items.count)
            // Each lane formats its stretch with its own formatters, on its own core.
            let stretches = stride(from: 0, to: items.count, by: Self.rowsPerChunk).map {
                items[$0..<min($0 + Self.rowsPerChunk, items.count)]
            }
            let parts = Locked([[UInt8]](repeating: [], count: stretches.count))
            DispatchQueue.concurrentPerform(iterations: stretches.count) { lane in
                let bytes = engine.withRowContext(display: display, access: access, now: now, formatters: lanes[lane]) { context in
                    format == .ndjson ? ndjson(stretches[lane], in: &context) : csv(stretches[lane], in: &context)
                }
                parts.withLock { $0[lane] = bytes }
            }
            return .bytes(head.take() + parts.withLock { $0.joined() })
        }
    }

    /// The byte order mark (where the separator is `;`) and the header row of a CSV file.
    private func writeHead(to csv: inout CSVWriter) {
        guard case .csv(let raw) = format else { return }
        if csv.separator == UInt8(ascii: ";") { csv.raw([0xEF, 0xBB, 0xBF]) }
        for title in raw ? C.rawExportFields : C.exportColumns.map({ $0.title(for: display.localeTag) }) { csv.cell(title) }
        csv.endRow()
    }

    private func ndjson(_ items: ArraySlice<(item: C.Item, revision: UInt32)>, in context: inout RowContext<C.Phrases>) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 64 * 1024)
        for (item, _) in items {
            _ = CollectionEngine<C>.writeListRow(item, version: ItemVersions<C>.digest(of: item), purpose: .list, in: &context, to: &json)
            json.endLine()
        }
        return json.bytes
    }

    private func csv(_ items: ArraySlice<(item: C.Item, revision: UInt32)>, in context: inout RowContext<C.Phrases>) -> [UInt8] {
        guard case .csv(let raw) = format else { return [] }
        var csv = CSVWriter(separator: separator, guardsFormulas: !raw, reservingCapacity: 64 * 1024)
        var row = JSONWriter(reservingCapacity: 1024)
        var members = FlatJSONObject()
        var cell: [UInt8] = []
        for (item, _) in items {
            row.removeAll()
            row.beginObject()
            if raw { C.writeRawRow(item, to: &row) } else { C.writeRow(item, in: &context, to: &row) }
            row.endObject()
            let bytes = row.bytes
            _ = members.read(bytes)
            for (column, name) in columnNames.enumerated() {
                guard let index = members.index(of: name, in: bytes, hint: column), !members.members[index].isNull else {
                    csv.cell(EmptyCollection<UInt8>(), isText: false)
                    continue
                }
                let member = members.members[index]
                guard member.isString else {
                    csv.cell(bytes[member.value], isText: false)
                    continue
                }
                cell.removeAll(keepingCapacity: true)
                FlatJSONObject.appendDecoded(member.value, of: bytes, to: &cell)
                csv.cell(cell)
            }
            csv.endRow()
        }
        return csv.take()
    }
}
