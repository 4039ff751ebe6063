import Foundation

/// A list's sections as answers show them (`sections`): every section of the whole list, in
/// order, each written display-ready, as of one state version. Immutable, shared by every page
/// of the list for one display until the items change or `validUntil`.
final class ListSections: Sendable {
    /// One section: its key, its object as written, what a live delta compares (title,
    /// subtitle, count, summary and cursor: not `firstIndex`, which shifts whenever rows come
    /// or go before it), and the rank of its first row.
    struct Section {
        let key: String
        let json: [UInt8]
        let content: [UInt8]
        let firstIndex: Int
        /// `"sectionKey":"…"`, the member each of its rows carries, written once.
        let rowMember: [UInt8]

        init(key: String, json: [UInt8], content: [UInt8], firstIndex: Int) {
            (self.key, self.json, self.content, self.firstIndex) = (key, json, content, firstIndex)
            var member = JSONWriter(reservingCapacity: key.utf8.count + 16)
            member.field("sectionKey", key)
            rowMember = member.bytes
        }
    }

    let sections: [Section]
    /// When a title, a summary or an item's section changes by itself (midnight, a task
    /// falling due); `distantFuture` for never.
    let validUntil: Date
    /// The state (and its version) they were read from.
    let version: UInt64
    let state: ObjectIdentifier
    /// `,"sections":[…]}`: how a page that carries them ends, made once for all of them.
    let pageTail: PageTail

    init(sections: [Section], validUntil: Date, version: UInt64, state: ObjectIdentifier) {
        self.sections = sections
        self.validUntil = validUntil
        self.version = version
        self.state = state
        pageTail = PageTail(Self.pageEnd(with: sections))
    }

    /// The section of each of `count` rows from rank `index` on, as an index into `sections`.
    func rowSections(from index: Int, count: Int) -> [Int] {
        // Only each section's `firstIndex` is read, through the array's buffer (with this and the
        // member taken once per section, a grouped page's extra fell from +25.0 k to +22.5 k instructions).
        sections.withUnsafeBufferPointer { sections in
            guard !sections.isEmpty else { return [] }
            // The last section starting at or before `index`.
            var low = 0, high = sections.count
            while low < high {
                let middle = (low + high) / 2
                if sections[middle].firstIndex <= index { low = middle + 1 } else { high = middle }
            }
            var current = max(0, low - 1)
            var rows: [Int] = []
            rows.reserveCapacity(count)
            for rank in index..<(index + count) {
                while current + 1 < sections.count && sections[current + 1].firstIndex <= rank { current += 1 }
                rows.append(current)
            }
            return rows
        }
    }

    /// `,"sections":[…]}`: the last member of a page and the page's closing brace.
    private static func pageEnd(with sections: [Section]) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 64 + sections.reduce(0) { $0 + $1.json.count + 1 })
        json.beginObject()
        json.key("sections")
        json.beginArray()
        for section in sections { json.raw(section.json) }
        json.endArray()
        json.endObject()
        var end = json.bytes
        end[0] = UInt8(ascii: ",")  // `{"sections":…}` becomes `,"sections":…}`
        return end
    }

    /// What a live delta says of these sections since `previous` (nil when nothing changed):
    /// `"sections":[…]` with each section whose title, subtitle, count, summary or cursor changed, in
    /// full, and each new one with `after` (the key of the section before it, null for the
    /// first); and `"removedSections":[…]` with the keys of those gone. A section whose
    /// `firstIndex` only shifted is not sent: a client derives it from the counts before it.
    func deltaMembers(since previous: ListSections?) -> [UInt8]? {
        let (old, new) = (previous?.sections ?? [], sections)
        let before = Dictionary(old.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Set(new.map(\.key))
        var json = JSONWriter(reservingCapacity: 256)
        json.beginObject()
        var isChanged = false
        for (index, section) in new.enumerated() {
            let previous = before[section.key]
            guard previous?.content != section.content else { continue }
            if !isChanged {
                json.key("sections")
                json.beginArray()
                isChanged = true
            }
            guard previous == nil else {
                json.raw(section.json)
                continue
            }
            var appeared = Array(section.json.dropLast())  // the object without its closing brace
            var after = JSONWriter(reservingCapacity: 32)
            after.beginObject()
            after.field("after", index == 0 ? nil : new[index - 1].key)
            after.endObject()
            appeared += [UInt8(ascii: ",")] + after.bytes.dropFirst()  // `"after":…}`
            json.raw(appeared)
        }
        if isChanged { json.endArray() }
        let removed = old.map(\.key).filter { !now.contains($0) }
        if !removed.isEmpty {
            json.key("removedSections")
            json.beginArray()
            for key in removed { json.string(key) }
            json.endArray()
        }
        json.endObject()
        return isChanged || !removed.isEmpty ? Array(json.bytes.dropFirst().dropLast()) : nil
    }
}
