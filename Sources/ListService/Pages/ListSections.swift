import Foundation

/// A list's sections as one answer shows them (`sections`): every section of the whole list,
/// in order, each written display-ready, and the key of each row of the page.
struct ListSections {
    /// One section: its key, its object as written, what a live delta compares (title,
    /// subtitle, count, summary: not `firstIndex` or `cursor`, which shift when rows come or go
    /// before it), and its place.
    struct Section: Equatable {
        let key: String
        let json: [UInt8]
        let content: [UInt8]
        let firstIndex: Int
        let count: Int
    }

    let sections: [Section]
    /// The section key of each row of the page, in order.
    let rowKeys: [String]
    /// When a title, a summary or an item's section changes by itself (midnight, a task
    /// falling due); `distantFuture` for never.
    let validUntil: Date

    /// `"sections":[…]`: the member a page carries (without braces).
    var member: [UInt8] {
        var json = JSONWriter(reservingCapacity: 64 + sections.reduce(0) { $0 + $1.json.count + 1 })
        json.beginObject()
        json.key("sections")
        json.beginArray()
        for section in sections { json.raw(section.json) }
        json.endArray()
        json.endObject()
        return Array(json.bytes.dropFirst().dropLast())
    }
}
