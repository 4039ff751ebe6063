import Foundation

/// A grouped list's sections (`group=`): found along the list as it is read (a binary search
/// per section boundary; a summary adds up its items), then written for the client's locale
/// and zone with a cursor that opens a page at each section's first row.
extension CollectionEngine {
    /// What the page read of `criteria` needs to find its sections (nil when not grouped), and
    /// the instant it decides them at.
    func sectionReading(for criteria: ListCriteria<C>, now: Date) -> SectionPlan? {
        guard let group = criteria.group else { return nil }
        let context = SectionContext(display: criteria.display, now: now)
        let tally = C.tally(for: group, in: context)
        let expiry = ExpiryBox()
        let value = tally.map { tally in
            { (item: C.Item) -> Int64 in
                if let itemExpiry = tally.expiry?(item) { expiry.lower(to: itemExpiry) }
                return tally.value(item)
            }
        }
        return SectionPlan(
            group: group, context: context, hasSummary: tally != nil, expiry: expiry,
            reading: CollectionState<C>.SectionReading(section: { C.section(of: $0, grouping: group, in: context) }, value: value))
    }

    /// How one page finds its list's sections.
    struct SectionPlan {
        let group: C.Grouping
        let context: SectionContext
        let hasSummary: Bool
        /// The earliest instant a summarised item's number changes by itself, found while reading.
        let expiry: ExpiryBox
        let reading: CollectionState<C>.SectionReading
    }

    /// The earliest of the instants it is told (a reference, for the closures that read items).
    final class ExpiryBox {
        private(set) var earliest = Date.distantFuture
        func lower(to date: Date) { earliest = min(earliest, date) }
    }

    /// The sections `contents` read under `plan`, written for `criteria`'s display.
    func sections(of contents: CollectionState<C>.PageContents, plan: SectionPlan, criteria: ListCriteria<C>) -> ListSections {
        var usedKeys: [String: Int] = [:]
        var sections: [ListSections.Section] = []
        var validUntil = plan.expiry.earliest
        let runs = contents.sections
        withRowContext(display: criteria.display, now: plan.context.now) { context in
            for (index, section) in runs.enumerated() {
                var key = C.sectionKey(section.run.key, grouping: plan.group, in: plan.context)
                // A key seen before (a locale's letter the list's order does not keep together) is numbered.
                if let seen = usedKeys[key] {
                    usedKeys[key] = seen + 1
                    key += "~\(seen + 1)"
                } else {
                    usedKeys[key] = 1
                }
                let heading = C.heading(of: section.run.key, grouping: plan.group, in: plan.context, writing: &context)
                if let headingEnd = heading.validUntil { validUntil = min(validUntil, headingEnd) }
                let summary = plan.hasSummary ? C.summary(of: section.run.sum, grouping: plan.group, in: &context) : nil
                var content = JSONWriter(reservingCapacity: 128)
                content.field("title", heading.title)
                if let subtitle = heading.subtitle { content.field("subtitle", subtitle) }
                content.field("count", section.run.count)
                content.field("formattedCount", context.formatting.count(section.run.count))
                if let summary { content.field("summary", summary) }
                var object = JSONWriter(reservingCapacity: 256)
                object.beginObject()
                object.field("key", key)
                object.raw(content.bytes)
                object.field("firstIndex", section.run.start)
                object.field("cursor", index == 0 ? "" : nextCursor(after: runs[index - 1].last, criteria: criteria))
                object.endObject()
                sections.append(
                    ListSections.Section(
                        key: key, json: object.bytes, content: content.bytes, firstIndex: section.run.start, count: section.run.count))
            }
        }
        var rowKeys: [String] = []
        rowKeys.reserveCapacity(contents.items.count)
        var current = 0
        for rank in contents.index..<(contents.index + contents.items.count) {
            while current + 1 < sections.count && sections[current + 1].firstIndex <= rank { current += 1 }
            rowKeys.append(sections.isEmpty ? "" : sections[current].key)
        }
        return ListSections(sections: sections, rowKeys: rowKeys, validUntil: validUntil)
    }
}
