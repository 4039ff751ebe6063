import Foundation

/// A grouped list's sections (`group=`): found along the list as it is read (a binary search
/// per section boundary; a summary adds up its items), written for the client's locale and
/// zone with a cursor that opens a page at each section's first row (`SectionCursor`), and
/// kept for the list, grouping and display until the items change or a heading's time is up,
/// so the pages of one grouped list (whatever their start, for every session) find them once.
extension CollectionEngine {
    /// What a list's sections depend on.
    struct SectionsKey: Hashable {
        let list: ListDefinition<C>
        let grouping: C.Grouping
        let display: DisplayContext
    }

    /// The page `criteria` names with its list's sections (nil when not grouped).
    func contentsAndSections(
        of result: SortedResult, criteria: ListCriteria<C>, now: Date
    ) throws(ListServiceError) -> (CollectionState<C>.PageContents, ListSections?) {
        guard let grouping = criteria.group else { return (try contents(of: result, criteria: criteria), nil) }
        let key = SectionsKey(list: criteria.definition, grouping: grouping, display: criteria.display)
        let state = self.state
        if let known = sectionsCache.withLock({ $0[key] }), known.state == ObjectIdentifier(state), now < known.validUntil {
            // A page opened at a section (its cursor) finds where that section starts as it reads.
            var opening: CollectionState<C>.SectionReading?
            if case .section = criteria.start {
                opening = .init(grouping: grouping, context: SectionContext(display: criteria.display, now: now), readsAll: false)
            }
            let contents = try contents(of: result, criteria: criteria, in: state, sections: opening)
            if contents.version == known.version { return (contents, known) }
        }
        let reading = CollectionState<C>.SectionReading(grouping: grouping, context: SectionContext(display: criteria.display, now: now))
        let contents = try contents(of: result, criteria: criteria, in: state, sections: reading)
        let sections = write(contents, reading: reading, criteria: criteria, state: state)
        sectionsCache.withLock { _ = $0.insert(key, sections, cost: sections.pageTail.bytes.count) }
        return (contents, sections)
    }

    /// The sections `contents` read, written for `criteria`'s display.
    private func write(
        _ contents: CollectionState<C>.PageContents, reading: CollectionState<C>.SectionReading, criteria: ListCriteria<C>,
        state: CollectionState<C>
    ) -> ListSections {
        var sections: [ListSections.Section] = []
        var validUntil = contents.sectionsExpiry ?? .distantFuture
        let runs = contents.sections
        let (grouping, context) = (reading.grouping, reading.context)
        let keys = C.sectionKeys(of: runs.lazy.map(\.run.key), grouping: grouping, in: context)
        withRowContext(display: criteria.display, access: criteria.access, now: context.now) { row in
            for (index, (section, key)) in zip(runs, keys).enumerated() {
                let heading = C.heading(of: section.run.key, grouping: grouping, in: context, writing: &row)
                if let headingEnd = heading.validUntil { validUntil = min(validUntil, headingEnd) }
                var content = JSONWriter(reservingCapacity: 128)
                content.field("title", heading.title)
                if let subtitle = heading.subtitle { content.field("subtitle", subtitle) }
                content.field("count", section.run.count)
                content.field("formattedCount", row.formatting.count(section.run.count))
                if C.summarizes(grouping), let summary = C.summary(of: section.run.sum, grouping: grouping, in: &row) {
                    content.field("summary", summary)
                }
                let cursor = index == 0 ? "" : SectionCursor(key: key).encoded
                var object = JSONWriter(reservingCapacity: 256)
                object.beginObject()
                object.field("key", key)
                object.raw(content.bytes)
                object.field("firstIndex", section.run.start)
                object.field("cursor", cursor)
                object.endObject()
                // What a live delta compares: the content, and the cursor (the first section's
                // is empty, the first page's, and another's once a section comes before it).
                sections.append(
                    ListSections.Section(
                        key: key, json: object.bytes, content: content.bytes + Array(cursor.utf8), firstIndex: section.run.start))
            }
        }
        return ListSections(
            sections: sections, validUntil: validUntil, version: contents.version, state: ObjectIdentifier(state))
    }
}
