import Basics
import Foundation
import Testing

@testable import ListService

/// Exports (`GET /{name}/export`) at the engine: the whole list in its order, cell for cell
/// the rows its pages serve; a spreadsheet's locale decides separator, byte order mark and
/// headers; the items are those of the export's start whatever changes meanwhile; a caller's
/// scope holds as in the list.
@Suite struct ExportTests {
    static let anchor = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()
    static let big = OwnerID("c-big")
    static let orders = Order.owned(count: 3_000, anchor: anchor, mostlyBy: big)

    static func engine(_ orders: [Order] = orders) -> CollectionEngine<Orders> {
        CollectionEngine(
            state: CollectionState<Orders>(items: orders), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { anchor })
    }

    static func request(_ query: String, caller: Caller = .anonymous) -> ListRequest {
        let parameters = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: parts[0], value: parts.count > 1 ? parts[1].removingPercentEncoding ?? parts[1] : "")
        }
        return ListRequest(parameters: parameters, caller: caller)
    }

    /// The export `query` names, read to its end.
    static func export(_ query: String, caller: Caller = .anonymous, from engine: CollectionEngine<Orders>) throws -> [UInt8] {
        let request = request(query, caller: caller)
        let format = try ExportFormat(parameters: request.parameters, accept: nil)
        return drain(engine.export(try ListCriteria<Orders>(request, now: anchor, purpose: .export), format: format))
    }

    static func drain(_ export: ListExport) -> [UInt8] {
        var bytes: [UInt8] = []
        while case .bytes(let chunk) = export.next() { bytes += chunk }
        return bytes
    }

    /// Every row of the list `query` names, page by page (500 at a time, by cursor).
    static func listRows(_ query: String, caller: Caller = .anonymous, in engine: CollectionEngine<Orders>) throws -> [[String: Any]] {
        var rows: [[String: Any]] = []
        var cursor = ""
        repeat {
            let request = request(query + "&limit=500&cursor=\(cursor)", caller: caller)
            let (page, _) = try engine.page(for: try ListCriteria<Orders>(request, now: anchor))
            let body = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            rows += try #require(body["items"] as? [[String: Any]])
            cursor = body["nextCursor"] as? String ?? ""
        } while !cursor.isEmpty
        return rows
    }

    /// RFC 4180 records: quoted cells may hold separators, doubled quotes and line breaks.
    static func records(_ text: String, separator: Unicode.Scalar = ",") -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var cell = String.UnicodeScalarView()
        var isQuoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if isQuoted {
                if scalar == "\"" {
                    if pending == "\"" { cell.append("\""); pending = scalars.next() } else { isQuoted = false }
                } else {
                    cell.append(scalar)
                }
            } else if scalar == "\"" {
                isQuoted = true
            } else if scalar == separator {
                record.append(String(cell)); cell = String.UnicodeScalarView()
            } else if scalar == "\r" && pending == "\n" {
                pending = scalars.next()
                record.append(String(cell)); cell = String.UnicodeScalarView()
                records.append(record); record = []
            } else {
                cell.append(scalar)
            }
        }
        return records
    }

    /// A row member as a CSV cell holds it.
    static func cellText(_ value: Any?) -> String {
        switch value {
        case let text as String: text
        case let flag as Bool: flag ? "true" : "false"  // order rows hold no other numbers
        default: ""
        }
    }

    @Test(arguments: ["filter=pending&sort=total&order=desc", "q=an&sort=customer", "locale=de-DE&tz=Europe/Berlin&sort=date"])
    func csvExport_isTheListsRowsInOrder_cellForCell(query: String) throws {
        let engine = Self.engine()
        let isGerman = query.contains("de-DE")
        var bytes = try Self.export(query, from: engine)
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF] ? isGerman : !isGerman)
        if isGerman { bytes.removeFirst(3) }
        let records = Self.records(String(decoding: bytes, as: UTF8.self), separator: isGerman ? ";" : ",")
        let rows = try Self.listRows(query, in: engine)
        #expect(rows.count > 100)
        #expect(records.count == rows.count + 1)
        #expect(records.first == Orders.exportColumns.map { $0.title(for: isGerman ? "de-DE" : "en-US") })
        for (record, row) in zip(records.dropFirst(), rows) {
            #expect(record == Orders.exportColumns.map { Self.cellText(row[$0.field]) })
        }
    }

    @Test func aSpreadsheetExportFollowsItsLocale_andARawOneIsForMachines() throws {
        let engine = Self.engine()
        let german = String(decoding: try Self.export("locale=de-DE&sort=total", from: engine), as: UTF8.self)
        #expect(german.hasPrefix("\u{FEFF}ID;Titel;Kunde;Status;Summe;Datum;Versand;Unterschrift nötig;Hoher Wert\r\n"))
        let french = String(decoding: try Self.export("locale=fr-FR", from: engine), as: UTF8.self)
        #expect(french.hasPrefix("\u{FEFF}ID;Titre;Client;Statut;Total;"))
        let japanese = String(decoding: try Self.export("locale=ja-JP", from: engine), as: UTF8.self)
        #expect(japanese.hasPrefix("ID,件名,顧客,ステータス,合計,"))

        // Raw: `,`, no byte order mark, field names as headers, ISO dates and plain amounts, whatever the locale.
        let raw = Self.records(String(decoding: try Self.export("locale=de-DE&raw=1&sort=date&order=asc", from: engine), as: UTF8.self))
        #expect(raw.first == Orders.rawExportFields)
        let oldest = try #require(Self.orders.min { ($0.date, $0.id) < ($1.date, $1.id) })
        #expect(raw.dropFirst().first?.first == oldest.id)
        let fields = Dictionary(uniqueKeysWithValues: zip(Orders.rawExportFields, raw[1]))
        #expect(fields["total"] == oldest.total.plainText && fields["date"] == ISO8601.format(oldest.date))
        #expect(fields["currency"] == oldest.currency.rawValue && fields["status"] == oldest.status.rawValue)
        #expect(raw.count == Self.orders.count + 1)
    }

    @Test func ndjsonExport_linesAreTheListsRows() throws {
        let engine = Self.engine()
        let text = String(decoding: try Self.export("format=ndjson&filter=completed&sort=total", from: engine), as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary }
        let rows = try Self.listRows("filter=completed&sort=total", in: engine)
        #expect(lines.count == rows.count)
        for (line, row) in zip(lines, rows) { #expect(line == (row as NSDictionary)) }
    }

    @Test func anExportHoldsTheItemsOfItsStart_whileItemsChange() throws {
        let engine = Self.engine()
        let query = "sort=total&order=desc"
        let before = try Self.export(query, from: engine)

        let request = Self.request(query)
        let export = engine.export(
            try ListCriteria<Orders>(request, now: Self.anchor, purpose: .export),
            format: try ExportFormat(parameters: request.parameters, accept: nil))
        guard case .bytes(var bytes) = export.next() else {
            Issue.record("the export's first piece is not bytes")
            return
        }
        // Changes everywhere in the list, read or not: updates that move rows, deletes, and
        // new orders that sort first.
        var changes: [ItemChange<Order>] = []
        for (index, order) in Self.orders.enumerated() where index % 7 == 0 {
            var changed = order
            changed.total = Money(cents: order.total.cents / 3)
            changed.title = "Changed \(order.id)"
            changes.append(.upsert(changed))
        }
        changes += Self.orders.enumerated().filter { $0.offset % 11 == 1 }.map { .delete(id: $0.element.id) }
        for index in 0..<50 {
            var new = Self.orders[index]
            new.id = "o-new-\(index)"
            new.total = Money(cents: 999_999_999)
            changes.append(.upsert(new))
        }
        for batch in stride(from: 0, to: changes.count, by: 40) { engine.apply(Array(changes[batch..<min(batch + 40, changes.count)])) }
        bytes += Self.drain(export)
        #expect(bytes == before)

        // An export begun now sees the changes; the kept items went with the one that ended.
        let after = try Self.export(query, from: engine)
        #expect(after != before)
        #expect(String(decoding: after, as: UTF8.self).contains("o-new-0"))
        #expect(Self.records(String(decoding: after, as: UTF8.self)).count == Self.orders.count + 1 - 273 + 50)
    }

    @Test func aCustomersExportHoldsOnlyTheirOrders() throws {
        let engine = Self.engine()
        let customer = Caller.identified(Identity(subject: Self.big.text ?? "", role: .customer))
        let records = Self.records(String(decoding: try Self.export("raw=1", caller: customer, from: engine), as: UTF8.self))
        let customerColumn = try #require(Orders.rawExportFields.firstIndex(of: "customerId"))
        let own = Self.orders.filter { $0.customer == Self.big }
        #expect(records.count == own.count + 1)
        #expect(records.dropFirst().allSatisfy { $0[customerColumn] == Self.big.text })
        #expect(Set(records.dropFirst().map { $0[0] }) == Set(own.map(\.id)))
    }

    @Test func aSnapshotKeepsEachChangedSlotOnce_andStopsPastItsBound() {
        var book = SnapshotBook<String>(maxKeptItems: 2)
        let first = book.openSnapshot(slotLimit: 10)
        book.keep(3) { ("three", 1) }
        book.keep(3) { ("three again", 2) }  // the first pre-image stays
        book.keep(12) { ("added after", 0) }  // a slot the snapshot never saw
        #expect(book.open[first]?.items[3]?.item == "three" && book.open[first]?.items.count == 1)
        let second = book.openSnapshot(slotLimit: 20)
        book.keep(12) { ("twelve", 0) }
        #expect(book.open[second]?.items.count == 1 && book.open[first]?.items.count == 1)
        book.keep(4) { ("four", 0) }
        book.keep(5) { ("five", 0) }
        #expect(book.open[first]?.isOverrun == true && book.open[first]?.items.isEmpty == true)
        #expect(book.open[second]?.isOverrun == true)
        book.close(first)
        book.close(second)
        #expect(book.isEmpty)
    }

    @Test func anExportWhoseSnapshotOverrunsEndsUnfinished() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders, maxKeptSnapshotItems: 100), metrics: ServiceMetrics(),
            formatters: FormatterCache(), clock: { Self.anchor })
        let export = engine.export(try ListCriteria<Orders>(Self.request(""), now: Self.anchor, purpose: .export), format: .ndjson)
        guard case .bytes = export.next() else {
            Issue.record("the export's first piece is not bytes")
            return
        }
        engine.apply(Self.orders.prefix(100).map { .delete(id: $0.id) })
        guard case .bytes = export.next() else {  // 100 kept: still whole
            Issue.record("with 100 deletes kept, the export is not whole")
            return
        }
        engine.apply([.delete(id: Self.orders[100].id)])
        guard case .overrun = export.next() else {
            Issue.record("past the kept deletes, the export did not say it was overrun")
            return
        }
    }

    @Test func csvCellsAreQuotedAsRFC4180Says_andFormulasAreDefused() {
        var csv = CSVWriter(separator: UInt8(ascii: ";"), guardsFormulas: true, reservingCapacity: 64)
        csv.cell("plain")
        csv.cell("semi;colon")
        csv.cell("say \"hi\"")
        csv.cell("two\nlines")
        csv.cell("=HYPERLINK(\"x\")")
        csv.cell("-5".utf8, isText: false)
        csv.cell("+1")
        csv.cell("-2+3+cmd|' /C calc'!A0")
        csv.endRow()
        let text = String(decoding: csv.take(), as: UTF8.self)
        let cells = [
            "plain", "\"semi;colon\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\"'=HYPERLINK(\"\"x\"\")\"", "-5", "\"'+1\"",
            "\"'-2+3+cmd|' /C calc'!A0\"",
        ]
        #expect(text == cells.joined(separator: ";") + "\r\n")
        #expect(csv.bytes.isEmpty)
    }

    @Test func aRowsMembersAreReadInPlace_escapesDecoded() throws {
        var json = JSONWriter()
        json.beginObject()
        json.field("text", "a \"quoted\"\\ line\nand\ttab \u{1} é 😀")
        json.field("count", 12)
        json.field("flag", false)
        json.field("none", nil as String?)
        json.endObject()
        let bytes = json.bytes + Array(#"{"escaped":"\u00e9\ud83d\ude00\/"}"#.utf8)
        var object = FlatJSONObject()
        let readFirst = object.read(json.bytes)
        #expect(readFirst)
        func text(_ name: String, in bytes: [UInt8]) -> String? {
            guard let index = object.index(of: Array(name.utf8), in: bytes, hint: 0) else { return nil }
            let member = object.members[index]
            var out: [UInt8] = []
            if member.isString { FlatJSONObject.appendDecoded(member.value, of: bytes, to: &out) } else { out = Array(bytes[member.value]) }
            return String(decoding: out, as: UTF8.self)
        }
        #expect(text("text", in: json.bytes) == "a \"quoted\"\\ line\nand\ttab \u{1} é 😀")
        #expect(text("count", in: json.bytes) == "12" && text("flag", in: json.bytes) == "false")
        #expect(object.index(of: Array("none".utf8), in: json.bytes, hint: 3).map { object.members[$0].isNull } == true)
        #expect(text("absent", in: json.bytes) == nil)
        let second = Array(bytes[json.bytes.count...])
        let readSecond = object.read(second)
        #expect(readSecond)
        #expect(text("escaped", in: second) == "é😀/")
        let readTorn = object.read(Array(#"{"open":"#.utf8))
        #expect(!readTorn)
    }

    @Test func theFormatComesFromItsParameterOrAccept_andBadOnesNameTheirParameter() throws {
        #expect(try ExportFormat(parameters: [], accept: nil) == .csv(raw: false))
        #expect(try ExportFormat(parameters: [], accept: "application/x-ndjson, text/csv;q=0.5") == .ndjson)
        #expect(try ExportFormat(parameters: [], accept: "text/csv, application/x-ndjson") == .csv(raw: false))
        #expect(try ExportFormat(parameters: [("format", "csv")], accept: "application/x-ndjson") == .csv(raw: false))
        #expect(try ExportFormat(parameters: [("raw", "1")], accept: nil) == .csv(raw: true))
        #expect(try ExportFormat(parameters: [("format", "ndjson")], accept: nil) == .ndjson)
        #expect(throws: ListServiceError.self) { try ExportFormat(parameters: [("format", "xlsx")], accept: nil) }
        // `raw=1` names CSV whatever `Accept` prefers.
        #expect(try ExportFormat(parameters: [("raw", "1")], accept: "application/x-ndjson") == .csv(raw: true))
        do {
            _ = try ExportFormat(parameters: [("format", "ndjson"), ("raw", "1")], accept: nil)
            Issue.record("raw=1 with NDJSON was taken")
        } catch { #expect(error.parameters == ["raw", "format"]) }
        do {
            _ = try ExportFormat(parameters: [("raw", "true")], accept: nil)
            Issue.record("raw=true was taken")
        } catch { #expect(error.parameter == "raw" && error.allowedValues == ["0", "1"]) }
    }

    @Test func acceptWeighsEachType_byItsMostSpecificRange() throws {
        let cases: [(accept: String, format: ExportFormat)] = [
            ("text/csv;q=0.1, application/x-ndjson", .ndjson),  // weights, not order
            ("application/x-ndjson;q=0.5, text/csv;q=0.5", .csv(raw: false)),  // a tie is CSV
            ("*/*", .csv(raw: false)),
            ("application/*;q=0.9, text/*;q=0.5", .ndjson),
            ("*/*;q=0.8, text/csv;q=0.2", .ndjson),  // text/csv's own range, not */*
            ("text/*;q=0, */*", .ndjson),
            ("Application/X-NDJSON ; Q=1", .ndjson),  // names and parameters in any case
            ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", .csv(raw: false)),  // a browser
            ("application/x-ndjson;q=2, text/csv;q=0.1", .csv(raw: false)),  // a broken weight drops its range
            ("nonsense, ;, /, */csv", .csv(raw: false)),  // no range left: no preference
            ("", .csv(raw: false)),
        ]
        for (accept, format) in cases { #expect(try ExportFormat(parameters: [], accept: accept) == format, "Accept: \(accept)") }
        for accept in ["application/xml", "text/csv;q=0, application/x-ndjson;q=0", "text/*;q=0.000, image/png", "*/*;q=0"] {
            do {
                _ = try ExportFormat(parameters: [], accept: accept)
                Issue.record("Accept: \(accept) was taken")
            } catch {
                #expect(error.kind == .notAcceptable && error.parameter == "Accept", "Accept: \(accept)")
                #expect(error.allowedValues == ["text/csv", "application/x-ndjson"])
            }
        }
        // A URL that names its format is not refused for its Accept.
        #expect(try ExportFormat(parameters: [("format", "ndjson")], accept: "application/xml") == .ndjson)
    }

    @Test func paging_belongsToLists() throws {
        // Paging belongs to lists, not files.
        #expect(throws: ListServiceError.self) { try ListCriteria<Orders>(Self.request("limit=5"), now: Self.anchor, purpose: .export) }
    }
}
