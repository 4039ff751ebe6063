import Foundation

/// How the engine writes a page: rows formatted for the client's display, the criteria, the
/// cursor of the next page.
extension CollectionEngine {
    /// Runs `body` with a row context for `display` and readers of `access`, collecting what it
    /// writes (in a buffer of its own size when a page's reserve would be mostly empty).
    func writeRows(
        display: DisplayContext, access: AccessScope, now: Date, _ body: (inout RowContext<C.Phrases>, inout JSONWriter) -> Date?
    ) -> ([UInt8], Date?) {
        withRowContext(display: display, access: access, now: now) { context in
            var json = JSONWriter(reservingCapacity: 4096)
            let expiry = body(&context, &json)
            return (json.compactedBytes, expiry)
        }
    }

    /// Runs `body` with a row context for `display` and readers of `access`: the display's
    /// shared formatters (or `own`, a set of the caller's), held meanwhile.
    func withRowContext<T>(
        display: DisplayContext, access: AccessScope, now: Date, formatters own: DisplayFormatters? = nil,
        _ body: (inout RowContext<C.Phrases>) -> T
    ) -> T {
        let formatters = own ?? formatters.formatters(for: display)
        return formatters.withFormatters { formatting in
            var context = RowContext(
                formatting: formatting, phrases: C.translations.phrases(for: display.localeTag), display: display, now: now,
                access: access)
            defer { formatting = context.formatting }
            return body(&context)
        }
    }

    func buildPage(_ criteria: ListCriteria<C>, result: SortedResult, counts: ListCounts, now: Date) throws(ListServiceError) -> ListPage {
        var contents: CollectionState<C>.PageContents
        let sections: ListSections?
        (contents, sections) = try contentsAndSections(of: result, criteria: criteria, now: now)
        let count = contents.items.count
        let rowSections = sections?.rowSections(from: contents.index, count: count) ?? []
        let versions = contents.versions()
        let nextCursor = contents.hasMore ? contents.items.last.map { self.nextCursor(after: $0, criteria: criteria) } : nil
        let total = contents.total
        var formattedTotal = ""
        let (rows, expiry) = writeRows(display: criteria.display, access: criteria.access, now: now) { context, json in
            formattedTotal = context.formatting.count(total)  // with the formatters the rows hold already
            // Each row is written from an item moved out of the page's own copies, last first
            // from the reversed array: lent from the array, an item was copied again for the
            // row writer's opaque calls (an order's seven strings retained and released, ~400
            // instructions a row; RESULTS.md §48).
            var items: [C.Item] = []
            swap(&items, &contents.items)
            items.withUnsafeMutableBufferPointer { $0.reverse() }  // moved in place (Array's own swaps copy)
            var expiry: Date?
            // The current section's member, taken again only where the section changes.
            var sectionMember: [UInt8]?, memberSection = -1
            json.beginArray()
            for index in 0..<count {
                if !rowSections.isEmpty, rowSections[index] != memberSection, let sections {
                    memberSection = rowSections[index]
                    sectionMember = sections.sections[memberSection].rowMember
                }
                let item = items.removeLast()
                if let rowExpiry = Self.writeListRow(
                    item, version: versions[index], purpose: .list, sectionMember: sectionMember, in: &context, to: &json)
                {
                    expiry = min(expiry ?? rowExpiry, rowExpiry)
                }
            }
            json.endArray()
            return expiry
        }
        metrics.increment(.rowsFormatted, by: count)
        metrics.increment(.pagesBuilt)
        var lead = Self.pageLead(
            total: total, formattedTotal: formattedTotal, nextCursor: nextCursor, purpose: .list,
            position: PagePosition(index: contents.index, rows: count, total: total),
            counts: countsMembers(counts, display: criteria.display), criteria: criteriaJSON(criteria), itemsBytes: rows.count,
            items: { $0.raw(rows) })
        if sections == nil { lead.endObject() }  // else the sections' shared tail ends the page
        return ListPage(
            body: lead.bytes, tail: sections?.pageTail, token: result.token, countsToken: counts.token,
            validUntil: min(criteria.validUntil, counts.validUntil, expiry ?? .distantFuture, sections?.validUntil ?? .distantFuture))
    }

    /// One row object of a list (with its item's version, what `If-Match` takes, so a client
    /// writes straight from a list) or one marker of a map, as every page and live list
    /// writes it, with its section's key in a grouped list (`sectionMember`, the section's
    /// `rowMember`); the instant the row's text goes stale, if it does.
    static func writeListRow(
        _ item: C.Item, version: UInt64, purpose: ListPurpose, sectionMember: [UInt8]? = nil, in context: inout RowContext<C.Phrases>,
        to json: inout JSONWriter
    ) -> Date? {
        json.beginObject()
        if purpose == .map {
            C.writeMarker(item, in: &context, to: &json)
        } else {
            C.writeRow(item, in: &context, to: &json)
            if let sectionMember { json.raw(sectionMember) }
            json.field("version", hexDigits: version)
        }
        json.endObject()
        return C.rowExpiry(of: item, in: context)
    }

    /// A page's body: `items` (written by `items`), `total` and `formattedTotal` (the total as
    /// the display's locale writes it), `nextCursor` and where the page
    /// sits (lists only), the counts' members (`countsMembers`), the encoded `criteria` and, last,
    /// a grouped list's `sections`; pages and live snapshots alike.
    static func pageBody(
        total: Int, formattedTotal: String, nextCursor: String?, purpose: ListPurpose, position: PagePosition?, counts: [UInt8],
        sections: ListSections? = nil, criteria: [UInt8], itemsBytes: Int, items: (inout JSONWriter) -> Void
    ) -> [UInt8] {
        var json = pageLead(
            total: total, formattedTotal: formattedTotal, nextCursor: nextCursor, purpose: purpose, position: position, counts: counts,
            criteria: criteria, itemsBytes: itemsBytes, tailBytes: sections?.pageTail.bytes.count ?? 1, items: items)
        if let sections { json.appendVerbatim(sections.pageTail.bytes) } else { json.endObject() }
        return json.bytes
    }

    /// A page's body up to its sections, open (no closing brace): see `pageBody`. `itemsBytes`:
    /// about what `items` writes, and `tailBytes` what will follow, so the body is allocated
    /// once at its size (a body that outgrew its room was copied into one twice as large:
    /// past 128 KiB, a fresh mapping each time).
    static func pageLead(
        total: Int, formattedTotal: String, nextCursor: String?, purpose: ListPurpose, position: PagePosition?, counts: [UInt8],
        criteria: [UInt8], itemsBytes: Int, tailBytes: Int = 1, items: (inout JSONWriter) -> Void
    ) -> JSONWriter {
        var json = JSONWriter(reservingCapacity: 512 + itemsBytes + counts.count + criteria.count + tailBytes)
        json.beginObject()
        json.key("items")
        items(&json)
        json.field("total", total)
        json.field("formattedTotal", formattedTotal)
        if purpose == .list { json.field("nextCursor", nextCursor) }
        if let position { position.write(to: &json) }
        json.raw(counts)  // members, not a value: `"counts":{…},"formattedCounts":{…}`
        json.key("criteria")
        json.raw(criteria)
        return json
    }

    /// The cursor of the page after one that ends with `last`.
    func nextCursor(after last: C.Item, criteria: ListCriteria<C>) -> String {
        PageCursor(
            fingerprint: criteria.fingerprint, sortValue: C.sortKey(of: last, by: criteria.sort, in: criteria.collation).cursorText,
            id: C.id(of: last)
        )
        .encoded
    }

    /// The criteria as applied (defaults filled in), encoded: a page's `criteria` member.
    func criteriaJSON(_ criteria: ListCriteria<C>) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        writeCriteria(criteria, to: &json)
        return json.bytes
    }

    /// The page's rows and total, read together (see `CollectionState.page`).
    /// Read from `state` (the current one by default); with `sections`, the whole list's
    /// sections too, read under the same lock.
    func contents(
        of result: SortedResult, criteria: ListCriteria<C>, in state: CollectionState<C>? = nil,
        sections: CollectionState<C>.SectionReading? = nil
    ) throws(ListServiceError) -> CollectionState<C>.PageContents {
        try (state ?? self.state).page(
            of: result.slots, version: result.version, list: criteria.definition, start: criteria.start, limit: criteria.limit,
            sections: sections)
    }

    /// The criteria as applied, defaults filled in.
    private func writeCriteria(_ criteria: ListCriteria<C>, to json: inout JSONWriter) {
        json.beginObject()
        if let viewParameter = C.viewParameter {
            json.key(viewParameter)
            json.string(criteria.view.rawValue)
        }
        for name in C.scopeParameters {
            json.key(name)
            json.optionalString(criteria.appliedParameters[name])
        }
        json.field("q", criteria.search)
        if criteria.purpose == .list {
            json.field("sort", criteria.sort.rawValue)
            json.field("order", criteria.direction.rawValue)
            json.field("group", criteria.group?.rawValue)
            json.field("limit", criteria.limit)
        }
        json.field("locale", criteria.display.localeTag)
        json.field("tz", criteria.display.timeZoneIdentifier)
        json.endObject()
    }
}
